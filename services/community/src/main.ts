import 'reflect-metadata';
import { loadConfigOrExit, runServiceProcess } from '@debate/nest';
import { communityEnvSchema } from './community.config.js';
import { CommunityServiceModule } from './community-service.module.js';

const env = loadConfigOrExit('the community service', communityEnvSchema);
await runServiceProcess('community', (options) =>
  CommunityServiceModule.register({
    ...options,
    leaderboardDailyLimit: env.LEADERBOARD_DAILY_LIMIT,
  }),
);
