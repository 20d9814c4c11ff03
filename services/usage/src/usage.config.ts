import { optionalEnv, serviceEnvSchema } from '@debate/nest';
import { z } from 'zod';
import { usageRules } from './allowance/ledger.js';

/** What the usage service's rules read (single-process mode reads them too). */
export const usageRulesEnvSchema = z.object({
  /** The designated test account whose allowance is reset to 100 once per calendar day (UTC). */
  USAGE_TEST_ACCOUNT_EMAIL: optionalEnv(z.email().optional()),
  /**
   * How long a run may stay open before its debate is given back (its generation instance
   * stopped without settling it). Raise it with OPENAI_TIMEOUT_MS: a run must end well within.
   */
  USAGE_ABANDONED_RUN_MS: optionalEnv(
    z.coerce.number().int().min(1_000).default(usageRules.abandonedRunAfterMs),
  ),
  /** How many debates one user may start in any minute, on every instance together. */
  USAGE_STARTS_PER_MINUTE: optionalEnv(
    z.coerce.number().int().min(1).max(1_000).default(usageRules.startsPerMinute),
  ),
});

/** The usage service's environment. */
export const usageEnvSchema = serviceEnvSchema.extend(usageRulesEnvSchema.shape);
