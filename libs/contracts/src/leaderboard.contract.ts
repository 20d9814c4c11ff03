import { z } from 'zod';
import { MAX_PERSON_NAME_LENGTH } from './constants/index.js';
import { defineRequest } from './contract.js';
import { subjects } from './subjects.js';

/**
 * What a board rates: the models that wrote the debates, each model's setup (as one completion,
 * or as a speaker team: 'GPT-4o, team' against 'GPT-4o, single'), the rhetoric styles, or the
 * people who debated a model against the models (PEOPLE).
 */
export const LeaderboardSubject = z.enum(['MODEL', 'SETUP', 'STYLE', 'PEOPLE']);
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
 * What a row of the People board is besides a model: a listed person (PERSON), or every
 * person's side pooled (PEOPLE).
 */
export const LeaderboardRowKind = z.enum(['PERSON', 'PEOPLE']);
export type LeaderboardRowKind = z.output<typeof LeaderboardRowKind>;

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
    /** Null: a model, a setup or a style. (Defaulted: stored boards of the last version.) */
    kind: LeaderboardRowKind.nullable().default(null),
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
    /**
     * Controlled for length and for where the room started: the judges' column from a
     * Bradley-Terry fit with the sides' word-count difference as a covariate (LMArena's style
     * control), the audience's from the sides' gains relative to where each started (Marx and
     * Cummings' normalized change). (Defaulted: stored boards of the last version.)
     */
    controlled: z.boolean().default(false),
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

/** The People board's pooled row: every person's side as one subject. */
export const PEOPLE_ROW_ID = 'people';
export const PEOPLE_ROW_LABEL = 'People';

/** The refusal of a listing without a name (none given, and no display name to take). */
export const NO_LISTING_NAME = 'Choose the name to be listed under.';

/**
 * The name a person is listed under on the People board: trimmed, 1 to 80 characters, and not
 * the pooled row's label (in any case), which would pass them off as everyone. (That it is no
 * model's label the gateway checks against the catalogue, which the community does not know.)
 */
export const ListingName = z
  .string()
  .trim()
  .min(1, NO_LISTING_NAME)
  .max(
    MAX_PERSON_NAME_LENGTH,
    `A name on the board has at most ${MAX_PERSON_NAME_LENGTH} characters.`,
  )
  .refine((name) => name.toLowerCase() !== PEOPLE_ROW_LABEL.toLowerCase(), {
    message: `"${PEOPLE_ROW_LABEL}" is the row of everyone pooled: choose another name.`,
  });

/**
 * A user's listing on the People board: whether they are listed and under what name, and how
 * many of their shared debates against a model the board rated (they are shown from three).
 */
export const PeopleListing = z
  .object({
    listed: z.boolean(),
    name: z.string().min(1).max(MAX_PERSON_NAME_LENGTH).nullable(),
    ratedDebates: count,
  })
  .strict();
export type PeopleListing = z.output<typeof PeopleListing>;

const userId = z.string().min(1).max(128);

export const leaderboardContracts = {
  /**
   * The board of `subject` (only debates in completed side-swapped pairs with `pairsOnly`;
   * controlled for length and the room's start with `controlled`).
   */
  get: defineRequest(
    subjects.community.leaderboard.get,
    z
      .object({
        subject: LeaderboardSubject,
        pairsOnly: z.boolean(),
        // (Defaulted: a gateway of the last version asks without it.)
        controlled: z.boolean().default(false),
      })
      .strict(),
    LeaderboardBoard,
  ),
  /** The user's listing on the People board. */
  getListing: defineRequest(
    subjects.community.listing.get,
    z.object({ userId }).strict(),
    PeopleListing,
  ),
  /** Lists the user under `name`, or takes them off the board; the boards are recomputed. */
  setListing: defineRequest(
    subjects.community.listing.set,
    z.discriminatedUnion('listed', [
      z.object({ userId, listed: z.literal(true), name: ListingName }).strict(),
      z.object({ userId, listed: z.literal(false) }).strict(),
    ]),
    PeopleListing,
  ),
} as const;
