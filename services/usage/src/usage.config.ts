import { optionalEnv, serviceEnvSchema } from '@debate/nest';
import { z } from 'zod';

/** The usage service's environment. */
export const usageEnvSchema = serviceEnvSchema.extend({
  /** The designated test account whose allowance is reset to 100 once per calendar day (UTC). */
  USAGE_TEST_ACCOUNT_EMAIL: optionalEnv(z.email().optional()),
});
