import { z } from 'zod';

/**
 * The usage rules an operator may set, as the usage service's environment variables, each with
 * its bounds. Values are text, as an environment or a deployment's settings hold them; absent
 * means the service's default. The usage service reads them at start (with its defaults), and
 * the Pulumi program checks a stack's values against the same schema, so that a value the
 * service would refuse fails the preview instead of every usage pod.
 */
export const usageSettingsSchema = z.object({
  /** The designated test account whose allowance is reset to 100 once per calendar day (UTC). */
  USAGE_TEST_ACCOUNT_EMAIL: z.email().max(320).optional(),
  /** The designated test account by its user id (the token's `sub`), verified or not. */
  USAGE_TEST_ACCOUNT_ID: z.string().min(1).max(128).optional(),
  /**
   * How long a run may stay open before its debate is given back (its generation instance
   * stopped without settling it). Raise it with OPENAI_TIMEOUT_MS: a run must end well within.
   */
  USAGE_ABANDONED_RUN_MS: z.coerce.number().int().min(1_000).optional(),
  /** How many debates one user may start in any minute, on every instance together. */
  USAGE_STARTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000).optional(),
});
export type UsageSettingName = keyof typeof usageSettingsSchema.shape;
