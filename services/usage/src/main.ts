import 'reflect-metadata';
import { loadConfigOrExit, runServiceProcess } from '@debate/nest';
import { usageEnvSchema } from './usage.config.js';
import { UsageServiceModule } from './usage-service.module.js';

const env = loadConfigOrExit('the usage service', usageEnvSchema);
await runServiceProcess('usage', (options) =>
  UsageServiceModule.register({
    ...options,
    testAccountEmail: env.USAGE_TEST_ACCOUNT_EMAIL,
    testAccountId: env.USAGE_TEST_ACCOUNT_ID,
    abandonedRunAfterMs: env.USAGE_ABANDONED_RUN_MS,
    startsPerMinute: env.USAGE_STARTS_PER_MINUTE,
  }),
);
