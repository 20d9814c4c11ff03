export {
  type CommunityServiceOptions,
  CommunityServiceModule,
} from './community-service.module.js';
export { communityEnvSchema, communityRulesEnvSchema } from './community.config.js';
// For `bench:gateway`, which calls the ranking's handler directly as the floor of its figures.
export { PublicDebatesController } from './public-debates/public-debates.controller.js';
// For `bench:team`, whose bootstrap intervals draw as the leaderboard's do.
export { seededRandom } from './leaderboard/bradley-terry.js';
