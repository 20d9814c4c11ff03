// Plain values shared with the web app, which imports them from `@debate/contracts/constants`:
// nothing here may import zod or anything else, so that the browser's bundle takes only these.

/** At most this many locally kept stars are sent by a signed-out visitor or merged at sign-in. */
export const MAX_LOCAL_STARS = 500;

/** The speaker that needs no network: always in the model catalogue, under this id and label. */
export const OFFLINE_MODEL_ID = 'offline';
export const OFFLINE_MODEL_LABEL = 'Offline speaker';
/**
 * The offline speaker as a team, offered beside the offline speaker itself when the operator
 * asks for both (OFFLINE_SPEAKER_MODE=both: the team-against-single benchmark's setting).
 */
export const OFFLINE_TEAM_MODEL_ID = 'offline-team';
export const OFFLINE_TEAM_MODEL_LABEL = 'Offline speaker team';
/**
 * The reserved model id of a person's side in a debate against a model: never in the catalogue,
 * and a speaker's model only when the debate's settings name that side as the person's.
 */
export const PERSON_MODEL_ID = 'person';

/** How far from neutral a model's stance must be against a person: it takes the other side. */
export const MIN_OPPOSING_STANCE = 0.2;
/**
 * A model's kind (in a catalogue entry and in what wrote a turn): a model, the offline speaker,
 * or a person (only in what wrote a turn: the catalogue never offers one).
 */
export const modelKinds = ['model', 'offline', 'person'] as const;
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

/** The most judges that read one debate (JUDGE_PANEL_SIZE's ceiling): each reads it twice. */
export const MAX_JUDGE_PANEL = 3;

/**
 * Below this many decisive verdicts the judges' record fits no length slope: a logistic fit of a
 * handful of verdicts is mostly noise, and often separated.
 */
export const LENGTH_SLOPE_MIN_VERDICTS = 10;

/** Minds changed are shown once at least this many readers gave where they stood before and after. */
export const MINDS_CHANGED_MIN_READERS = 5;

/** The categories a debate can be filed under, in the ranking filter's order (spec §2). */
export const categoryNames = [
  'Politics',
  'Technology',
  'Philosophy',
  'Science',
  'Society',
  'Economics',
  'Environment',
  'Ethics',
  'Culture',
  'Funny',
] as const;

/** Round 1, 2 and 3, in order. */
export const roundTitles = ['Constructive Arguments', 'Rebuttal', 'Summary'] as const;

/**
 * The words a person's turn must have, by round (1 Constructive Arguments, 2 Rebuttal,
 * 3 Summary): the run refuses a turn outside them, and the web's editor shows them.
 */
export const PERSON_TURN_WORDS: Readonly<Record<1 | 2 | 3, { min: number; max: number }>> = {
  1: { min: 40, max: 400 },
  2: { min: 25, max: 300 },
  3: { min: 20, max: 250 },
};

/** A text's words as the turn limits count them: runs of anything but whitespace. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/** The two speakers, as every round names them: the first speaker's side, then the second's. */
export const speakerNames = ['First Speaker', 'Second Speaker'] as const;

/**
 * Which speaker argues For the motion: the one with the higher stance; null when the stances are
 * equal (then neither side is For): the leaderboard's audience column, the judges' record and the
 * scorecard's readers all take it so.
 */
export function forSpeakerOf(
  firstStance: number,
  secondStance: number,
): (typeof speakerNames)[number] | null {
  if (firstStance === secondStance) return null;
  return firstStance > secondStance ? 'First Speaker' : 'Second Speaker';
}

/**
 * The stages of a speaker team's turn, in order (a single speaker's turn has none; a team
 * searches only where the operator configured a search backend).
 */
export const turnStages = ['searching', 'analyzing', 'writing', 'reviewing', 'revising'] as const;

/** The most pieces of evidence a team's searcher brings to a speech. */
export const MAX_EVIDENCE = 5;

/**
 * The free allowance's refill, defined here only (spec §3 'Free-debate usage'): a user with no
 * free debate left gets 1 again once their last debate started more than this many days ago.
 * The usage service applies it; the account page's note and the generator's refusal say it.
 */
export const FREE_DEBATE_REFILL_DAYS = 6;
/** {@link FREE_DEBATE_REFILL_DAYS} in milliseconds, as the usage service compares times. */
export const FREE_DEBATE_REFILL_MS = FREE_DEBATE_REFILL_DAYS * 24 * 60 * 60 * 1000;

/**
 * The spec's texts about the refill, word for word, their numbers read from
 * {@link FREE_DEBATE_REFILL_DAYS}. The spec keeps two readings of one rule (§3: 'Both readings
 * are kept'): the note says the refill's own 6 days; the refusal says 'within 7 days', true of a
 * refill after more than 6 days, so it reads one day more than the refill.
 */
export const allowanceTexts = {
  /** The account page's tooltip on 'Free Debates Remaining' (spec §2 Account). */
  refillTooltip: 'After a week without debates you get 1 for free!',
  /** The account page's note beside a 0, when a debate was started before (spec §2 Account). */
  refillNote: `(Refreshes after ${FREE_DEBATE_REFILL_DAYS} days of inactivity)`,
  /** The generator's refusal when none is left (spec §8 'No free debates left'). */
  noFreeDebates: `No free debates left. Next free debate within ${FREE_DEBATE_REFILL_DAYS + 1} days or consider supporting us by purchasing a PRO account`,
} as const;

/** The longest topic a debate may have, in characters. */
export const MAX_TOPIC_LENGTH = 500;

/**
 * The longest name of a person: their side's label in a debate against a model (WrittenBy),
 * and the name they are listed under on the People board.
 */
export const MAX_PERSON_NAME_LENGTH = 80;

/** The name a saved debate's author gets when they have no display name (spec §3 debates). */
export const ANONYMOUS_AUTHOR = 'Anonymous User';
/** The community copy's fallback for an empty name (spec §3 publicDebates). */
export const ANONYMOUS_SHARER = 'Anonymous';

/**
 * The account the example debates belong to: `npm start` writes a handful with the offline
 * speaker and shares them when the community is empty (SEED_EXAMPLES), each shown as an example.
 */
export const EXAMPLES_USER_ID = 'examples';
export const EXAMPLES_AUTHOR = 'AI Debate examples';

/** The author's name to show, or null when the debate carries only a fallback for none. */
export function authorName(userDisplayName: string): string | null {
  const name = userDisplayName.trim();
  return name === '' || name === ANONYMOUS_AUTHOR || name === ANONYMOUS_SHARER ? null : name;
}
