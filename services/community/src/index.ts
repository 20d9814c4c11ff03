export { CommunityServiceModule } from './community-service.module.js';
// For `bench:gateway`, which calls the ranking's handler directly as the floor of its figures.
export { PublicDebatesController } from './public-debates/public-debates.controller.js';
