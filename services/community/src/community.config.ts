import { communitySettingsSchema } from '@debate/contracts';
import { optionalEnv, serviceEnvSchema } from '@debate/nest';
import { z } from 'zod';

/** The leaderboard's daily limit unless LEADERBOARD_DAILY_LIMIT says otherwise. */
export const DEFAULT_LEADERBOARD_DAILY_LIMIT = 4;

const settings = communitySettingsSchema.shape;

/**
 * What the community service's rules read (single-process mode reads them too): the setting's
 * bounds are the contract's (the Pulumi program checks a stack's value against them); unset or
 * empty, the default.
 */
export const communityRulesEnvSchema = z.object({
  LEADERBOARD_DAILY_LIMIT: optionalEnv(
    settings.LEADERBOARD_DAILY_LIMIT.default(DEFAULT_LEADERBOARD_DAILY_LIMIT),
  ).describe(
    "How many debates of one author and one pairing of models (either side) shared on one UTC day the leaderboard rates: the first ones shared; the others' cards say they are over the daily limit. One account cannot move a rating by sharing the same pairing over and over; 4 leaves room for two side-swapped pairs.",
  ),
});

/** The community service's environment. */
export const communityEnvSchema = serviceEnvSchema.extend(communityRulesEnvSchema.shape);
