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
    /** Judged debates not rated: both sides the same subject, or a speaker's writer unknown. */
    notRated: z.object({ sameSubject: count, unknownWriter: count }).strict(),
    /** How many bootstrap rounds each interval comes from. */
    bootstrapRounds: count,
    computedAt: z.iso.datetime().nullable(),
    /** How long the recompute that made it took, in milliseconds (null: none yet). */
    computeMs: z.number().nonnegative().nullable(),
  })
  .strict();
export type LeaderboardBoard = z.output<typeof LeaderboardBoard>;

export const leaderboardContracts = {
  /** The board of `subject` (only debates in completed side-swapped pairs with `pairsOnly`). */
  get: defineRequest(
    subjects.community.leaderboard.get,
    z.object({ subject: LeaderboardSubject, pairsOnly: z.boolean() }).strict(),
    LeaderboardBoard,
  ),
} as const;
