// Plain values shared with the web app, which imports them from `@debate/contracts/constants`:
// nothing here may import zod or anything else, so that the browser's bundle takes only these.

/** At most this many locally kept stars are sent by a signed-out visitor or merged at sign-in. */
export const MAX_LOCAL_STARS = 500;

/** The speaker that needs no network: always in the model catalogue, under this id and label. */
export const OFFLINE_MODEL_ID = 'offline';
export const OFFLINE_MODEL_LABEL = 'Offline speaker';
/** A model's kind (in a catalogue entry and in what wrote a turn): a model, or the offline speaker. */
export const modelKinds = ['model', 'offline'] as const;
/** The judge that needs no network (the default judge): its id and label in a scorecard. */
export const OFFLINE_JUDGE_ID = 'offline';
export const OFFLINE_JUDGE_LABEL = 'Offline judge';

/** The judges' criteria, in the scorecard's order. */
export const judgeCriteria = ['argument', 'evidence', 'rebuttal', 'clarity'] as const;
/** Each criterion's weight in a speaker's total (Debatrix and Debate.org's ballot weigh so). */
export const criterionWeights: Readonly<Record<(typeof judgeCriteria)[number], number>> = {
  argument: 3,
  evidence: 2,
  rebuttal: 2,
  clarity: 1,
};
/** Each criterion as the scorecard names it. */
export const criterionLabels: Readonly<Record<(typeof judgeCriteria)[number], string>> = {
  argument: 'Argument strength',
  evidence: 'Evidence',
  rebuttal: 'Rebuttal and clash',
  clarity: 'Clarity',
};
/** The most a speaker's weighted total can be: 10 on every criterion. */
export const MAX_VERDICT_TOTAL =
  10 * judgeCriteria.reduce((sum, criterion) => sum + criterionWeights[criterion], 0);

/** Minds changed are shown once at least this many readers gave where they stood before and after. */
export const MINDS_CHANGED_MIN_READERS = 5;

/** The longest topic a debate may have, in characters. */
export const MAX_TOPIC_LENGTH = 500;
