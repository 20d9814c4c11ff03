import { z } from 'zod';
import { modelKinds } from './constants/index.js';
import { defineRequest } from './contract.js';
import { subjects } from './subjects.js';

const count = z.number().int().nonnegative();
const figure = z.number().finite();

/**
 * One figure of the judges' record: its value, its 95% interval, and how many observations it
 * is computed from (`count`: debates, or pairs of judges on one debate). `value`, `low` and
 * `high` are null when there is nothing to compute it from (or, for an interval, too little).
 */
export const JudgeFigure = z
  .object({
    value: figure.nullable(),
    low: figure.nullable(),
    high: figure.nullable(),
    count,
  })
  .strict();
export type JudgeFigure = z.output<typeof JudgeFigure>;

/** How often a judge's winner is the readers' side, and Cohen's κ of the two. */
export const ReaderAgreement = z.object({ agreement: JudgeFigure, kappa: JudgeFigure }).strict();
export type ReaderAgreement = z.output<typeof ReaderAgreement>;

/**
 * One judge's record over the public debates it judged (as the scorecard's judge or on the
 * panel), or every judge's together (`judgeId` null):
 * - `positionConsistency`: the share of its debates whose two readings, sides swapped, named the
 *   same winner (a tie in both counts as the same);
 * - `firstShownMargin`: how many points (of 80) more it gave the side it read first than the
 *   other, the mean over its debates of the two readings' margins for the side read first (the
 *   swap cancels what the debate itself deserves);
 * - `pairwiseAgreement` and `fleissKappa`: over the debates it read with other judges, the share
 *   of pairs of judges naming the same winner (First, Second or a tie), and Fleiss' κ;
 * - `selfPreference`: on the debates its own model spoke in and judges with no model in the
 *   debate judged too, its margin (points) for its model's side minus those judges' mean margin
 *   for it (a judge whose model wrote the other side would pull the baseline its own way);
 * - `lengthSlope`: the logistic fit of its decisive verdicts (First Speaker won) on the words
 *   First Speaker wrote more than Second, per 100 words (log-odds);
 * - `readersMinds` and `readersVotes`: how often its winner (For, Against or a tie) is the side
 *   the readers moved toward (minds changed) and the side the For/Against votes favour, with
 *   Cohen's κ.
 */
export const JudgeRecord = z
  .object({
    judgeId: z.string().min(1).max(128).nullable(),
    label: z.string().min(1).max(80),
    kind: z.enum(modelKinds).nullable(),
    debates: count,
    positionConsistency: JudgeFigure,
    firstShownMargin: JudgeFigure,
    pairwiseAgreement: JudgeFigure,
    fleissKappa: JudgeFigure,
    selfPreference: JudgeFigure,
    lengthSlope: JudgeFigure,
    readersMinds: ReaderAgreement,
    readersVotes: ReaderAgreement,
  })
  .strict();
export type JudgeRecord = z.output<typeof JudgeRecord>;

/**
 * The judges' record as the community service last computed it from the judged public debates
 * (in the background, as the leaderboard is): every judge's, most debates first, and all
 * together. `computedAt` is null before the first computation.
 */
export const JudgesReport = z
  .object({
    judges: z.array(JudgeRecord),
    all: JudgeRecord,
    /** The judged public debates it was computed from. */
    debates: count,
    /** How many bootstrap rounds the intervals of the means and the κs come from. */
    bootstrapRounds: count,
    computedAt: z.iso.datetime().nullable(),
    computeMs: z.number().nonnegative().nullable(),
  })
  .strict();
export type JudgesReport = z.output<typeof JudgesReport>;

/** The label of every judge's record together. */
export const ALL_JUDGES_LABEL = 'All judges';

export const judgesContracts = {
  /** The stored judges' record, never computed on the request's time. */
  get: defineRequest(subjects.community.judges.get, z.object({}).strict(), JudgesReport),
} as const;
