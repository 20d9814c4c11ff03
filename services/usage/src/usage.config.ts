import { usageSettingsSchema } from '@debate/contracts';
import { optionalEnv, serviceEnvSchema } from '@debate/nest';
import { z } from 'zod';
import { usageRules } from './allowance/usage-rules.js';

const settings = usageSettingsSchema.shape;

/**
 * What the usage service's rules read (single-process mode reads them too): the settings'
 * bounds are the contract's (the Pulumi program checks a stack's values against them); unset or
 * empty, the rules' defaults.
 */
export const usageRulesEnvSchema = z.object({
  USAGE_TEST_ACCOUNT_EMAIL: optionalEnv(settings.USAGE_TEST_ACCOUNT_EMAIL).describe(
    'The designated test account, whose allowance is reset to 100 once per calendar day (UTC), matched by this address only once the realm has verified it.',
  ),
  USAGE_TEST_ACCOUNT_ID: optionalEnv(settings.USAGE_TEST_ACCOUNT_ID).describe(
    "The designated test account by its user id (the token's sub), verified or not: for a deployment that does not verify addresses.",
  ),
  USAGE_ABANDONED_RUN_MS: optionalEnv(
    settings.USAGE_ABANDONED_RUN_MS.default(usageRules.abandonedRunAfterMs),
  ).describe(
    'How long a run may stay open before its debate is given back (its generation instance stopped without settling it); raise it with OPENAI_TIMEOUT_MS, as a run must end well within.',
  ),
  USAGE_STARTS_PER_MINUTE: optionalEnv(
    settings.USAGE_STARTS_PER_MINUTE.default(usageRules.startsPerMinute),
  ).describe('How many debates one user may start in any minute, on every instance together.'),
});

/** The usage service's environment. */
export const usageEnvSchema = serviceEnvSchema.extend(usageRulesEnvSchema.shape);
