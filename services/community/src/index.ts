export { CommunityServiceModule } from './community-service.module.js';
