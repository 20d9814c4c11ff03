import { z } from 'zod';
import { defineRequest } from './contract.js';
import { subjects } from './subjects.js';

/**
 * What a board rates: the models that wrote the debates, each model's setup (as one completion,
 * or as a speaker team: 'GPT-4o, team' against 'GPT-4o, single'), or the rhetoric styles.
 */
export const LeaderboardSubject = z.enum(['MODEL', 'SETUP', 'STYLE']);
export type LeaderboardSubject = z.output<typeof LeaderboardSubject>;

const count = z.number().int().nonnegative();
/** A rating on the Elo-like scale: 1000 + 400·log10 of the Bradley-Terry strength. */
const rating = z.number().finite();

/** A rating from the audience's minds-changed winners, with its 95% interval. */
export const AudienceRating = z
  .object({
    rating,
    low: rating,
    high: rating,
    /** The subject's debates with a minds-changed winner (a side gained more, or a tie). */
    debates: count,
  })
  .strict();
export type AudienceRating = z.output<typeof AudienceRating>;

/**
 * One row of a board: a model (its catalogue id and label) or a style, its rating from the
 * judges' verdicts (Bradley-Terry, ties half a win each way) with the 95% interval of the
 * bootstrap rounds, the debates it was rated on and the completed side-swapped pairs among them,
 * and the audience's rating where the subject has minds-changed winners (else null).
 */
export const LeaderboardRow = z
  .object({
    id: z.string().min(1).max(128),
    label: z.string().min(1).max(80),
    rating,
    low: rating,
    high: rating,
    debates: count,
    pairs: count,
    audience: AudienceRating.nullable(),
  })
  .strict();
export type LeaderboardRow = z.output<typeof LeaderboardRow>;

/**
 * A board as the community service last computed it: `rows` from the debates written by models
 * alone, best first; `apart` from those with a speaker written by the offline speaker, rated
 * apart and never mixed with the others. `computedAt` is null before the first computation.
 */
export const LeaderboardBoard = z
  .object({
    subject: LeaderboardSubject,
    pairsOnly: z.boolean(),
    rows: z.array(LeaderboardRow),
    apart: z.array(LeaderboardRow),
    /** The debates behind `rows`, and behind `apart`. */
    debates: count,
    apartDebates: count,
    /**
     * Judged debates not rated: both sides the same subject; saved before what wrote a speaker,
     * or whether it had personality hints, was kept (DebateRating's NOT_RECORDED); a speaker
     * had hints; over the daily limit of its author and pairing.
     */
    notRated: z
      .object({
        sameSubject: count,
        // (Defaulted, and the last version's `unknownWriter` read as `notRecorded`: a gateway of
        // this version still reads a community service of the last one, and its stored boards.)
        notRecorded: count.optional(),
        personalityHints: count.default(0),
        dailyLimit: count.default(0),
        unknownWriter: count.optional(),
      })
      .strict()
      .transform(({ unknownWriter, notRecorded, ...counts }) => ({
        ...counts,
        notRecorded: notRecorded ?? unknownWriter ?? 0,
      })),
    /** How many bootstrap rounds each interval comes from. */
    bootstrapRounds: count,
    computedAt: z.iso.datetime().nullable(),
    /** How long the recompute that made it took, in milliseconds (null: none yet). */
    computeMs: z.number().nonnegative().nullable(),
  })
  .strict();
export type LeaderboardBoard = z.output<typeof LeaderboardBoard>;

/**
 * The leaderboard's rule an operator may set, as the community service's environment variable:
 * text, as an environment or a deployment's settings hold it; absent means the service's
 * default. The community service reads it at start, and the Pulumi program checks a stack's
 * value against the same schema, so that a value the service would refuse fails the preview.
 */
export const communitySettingsSchema = z.object({
  /** How many debates of one author and one pairing shared on one UTC day the boards rate. */
  LEADERBOARD_DAILY_LIMIT: z.coerce.number().int().min(1).max(1_000).optional(),
});
export type CommunitySettingName = keyof typeof communitySettingsSchema.shape;

export const leaderboardContracts = {
  /** The board of `subject` (only debates in completed side-swapped pairs with `pairsOnly`). */
  get: defineRequest(
    subjects.community.leaderboard.get,
    z.object({ subject: LeaderboardSubject, pairsOnly: z.boolean() }).strict(),
    LeaderboardBoard,
  ),
} as const;
