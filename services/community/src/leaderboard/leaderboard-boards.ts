import {
  forSpeakerOf,
  type RoomWinner,
  type AudienceRating,
  type DebateRating,
  type LeaderboardBoard,
  LeaderboardSubject,
  type LeaderboardRow,
  type LeaderboardRowKind,
  PEOPLE_ROW_ID,
  PEOPLE_ROW_LABEL,
  type SpeakerMode,
  type Verdict,
  type WrittenBy,
} from '@debate/contracts';
import { createHash } from 'node:crypto';
import {
  BOOTSTRAP_ROUNDS,
  type Game,
  lengthCovariate,
  rate,
  type RateOptions,
} from './bradley-terry.js';

/** What the leaderboard reads of a speaker. */
export interface RatedSpeaker {
  readonly stance: number;
  readonly rhetoricStyle: string;
  readonly writtenBy: Pick<WrittenBy, 'kind' | 'modelId' | 'label'> | null;
  /** Whether its model spoke as a team (its rounds say how the team made them) or alone. */
  readonly speakerMode: SpeakerMode;
  /** Whether it was given personality hints; null: saved before that was kept. */
  readonly personalityHints: boolean | null;
  /** The words of its rounds, all told: the controlled boards' length covariate. */
  readonly words: number;
}

/** What the leaderboard reads of a public debate. */
export interface RatedDebate {
  readonly id: string;
  /** Who shared it: the daily limit is per author. */
  readonly authorId: string;
  /** When it was shared (ms): a model's label is the one of its latest debate. */
  readonly sharedAt: number;
  readonly rematchOf: string | null;
  readonly model1: RatedSpeaker;
  readonly model2: RatedSpeaker;
  /** Whether the judges scored it. */
  readonly judged: boolean;
  /** The judges' winner ('First Speaker' is model1); null: a tie (or not judged). */
  readonly winner: Verdict['winner'];
  /** The audience's minds-changed winner; null below the readers it takes. */
  readonly audience: RoomWinner | null;
  /**
   * The audience's winner by each side's gain relative to where it started (normalized
   * change), the controlled boards'; null below the readers it takes.
   */
  readonly audienceRelative: RoomWinner | null;
}

/** A subject of a board: its id and label, and on the People board what it is if no model. */
interface Subject {
  readonly id: string;
  readonly label: string;
  readonly kind?: LeaderboardRowKind;
}

/** How many rated debates a listed person needs before the People board shows them. */
export const MIN_PERSON_DEBATES = 3;

/**
 * A person's id on the People board: a hash of their account's id, so that the board, which
 * anyone reads, never gives an account's id away (nor tells whether an unlisted one debated).
 */
export const personSubjectId = (userId: string): string =>
  `person:${createHash('sha256').update(userId).digest('hex').slice(0, 12)}`;

/** Whether one side of the debate is a person's (the other is then a model). */
const hasPersonSide = (debate: RatedDebate): boolean =>
  debate.model1.writtenBy?.kind === 'person' || debate.model2.writtenBy?.kind === 'person';

/** A style as a board names it: 'formal' → 'Formal'. */
const styleLabel = (style: string) => style.charAt(0).toUpperCase() + style.slice(1);

/** What a side of a debate is, on a board of `subject`. */
function subjectOf(subject: LeaderboardSubject, speaker: RatedSpeaker): Subject | null {
  if (subject === 'STYLE')
    return { id: speaker.rhetoricStyle, label: styleLabel(speaker.rhetoricStyle) };
  const writer = speaker.writtenBy;
  if (!writer) return null;
  if (subject === 'SETUP') {
    return {
      id: `${writer.modelId}:${speaker.speakerMode}`,
      label: `${writer.label}, ${speaker.speakerMode}`,
    };
  }
  return { id: writer.modelId, label: writer.label };
}

/** The UTC day of a moment (ms): the daily limit's day, the same everywhere. */
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * A debate's pairing: its two writers, whichever side each took ('a vs b', in order); a
 * person's side is that person (its author): `person:<authorId>`.
 */
function pairingOf(debate: RatedDebate): string {
  const writer = ({ writtenBy }: RatedSpeaker) =>
    writtenBy?.kind === 'person' ? `person:${debate.authorId}` : (writtenBy?.modelId ?? '');
  return [writer(debate.model1), writer(debate.model2)].sort().join(' vs ');
}

/**
 * Whether the leaderboard rates each debate, or why not: it must be judged; what wrote each
 * speaker and whether it had personality hints must be known; no speaker may have had hints
 * (hints can steer a debate and address its judge, and one side's hints cannot be swapped away
 * by a rematch); and of one author's debates of one pairing (the two models, either side) shared
 * on one UTC day, only the first `dailyLimit` count, by sharedAt then id, so that one account
 * sharing a pairing many times a day moves its ratings no more than `dailyLimit` debates can.
 * A debate with a person's side is rated the same way (the People board's), its pairing the
 * person against the model.
 */
export function ratingsOf(
  debates: readonly RatedDebate[],
  dailyLimit: number,
): Map<string, DebateRating> {
  const ratings = new Map<string, DebateRating>();
  const counted = new Map<string, number>();
  const inOrder = [...debates].sort(
    (x, y) => x.sharedAt - y.sharedAt || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
  );
  for (const debate of inOrder) {
    const speakers = [debate.model1, debate.model2];
    if (!debate.judged) {
      ratings.set(debate.id, 'NOT_JUDGED');
    } else if (speakers.some((s) => s.writtenBy === null || s.personalityHints === null)) {
      ratings.set(debate.id, 'NOT_RECORDED');
    } else if (speakers.some((s) => s.personalityHints)) {
      ratings.set(debate.id, 'PERSONALITY_HINTS');
    } else {
      const key = `${debate.authorId}\n${pairingOf(debate)}\n${utcDay(debate.sharedAt)}`;
      const before = counted.get(key) ?? 0;
      counted.set(key, before + 1);
      ratings.set(debate.id, before < dailyLimit ? 'RATED' : 'DAILY_LIMIT');
    }
  }
  return ratings;
}

/**
 * The judged debates that are part of a completed side-swapped pair: a debate and its rematch
 * (rematchOf its id), both public and judged. Each pair as [original, rematch].
 */
function completedPairs(debates: readonly RatedDebate[]): Array<[RatedDebate, RatedDebate]> {
  const byId = new Map(debates.map((debate) => [debate.id, debate]));
  return debates.flatMap((rematch) => {
    const original = rematch.rematchOf ? byId.get(rematch.rematchOf) : undefined;
    return original && original.id !== rematch.id
      ? [[original, rematch] as [RatedDebate, RatedDebate]]
      : [];
  });
}

/**
 * One group of debates fitted together: the model-written ones, or the offline speaker's;
 * `controlled`, the judges' games with their length covariate and the audience's winners by
 * relative gain.
 */
class Fit {
  private readonly subjects = new Map<
    string,
    { subject: Subject; index: number; seenAt: number }
  >();
  private readonly judged: Game[] = [];
  private readonly heard: Game[] = [];
  private readonly debates: number[] = [];
  private readonly heardDebates: number[] = [];
  private readonly pairs: number[] = [];
  private readonly fitted = new Set<string>();
  count = 0;

  constructor(private readonly controlled: boolean) {}

  private indexOf(subject: Subject, seenAt: number): number {
    const known = this.subjects.get(subject.id);
    if (known) {
      if (seenAt >= known.seenAt) this.subjects.set(subject.id, { ...known, subject, seenAt });
      return known.index;
    }
    const index = this.subjects.size;
    this.subjects.set(subject.id, { subject, index, seenAt });
    this.debates.push(0);
    this.heardDebates.push(0);
    this.pairs.push(0);
    return index;
  }

  add(debate: RatedDebate, first: Subject, second: Subject): void {
    const a = this.indexOf(first, debate.sharedAt);
    const b = this.indexOf(second, debate.sharedAt);
    this.count += 1;
    this.fitted.add(debate.id);
    this.debates[a] = (this.debates[a] ?? 0) + 1;
    this.debates[b] = (this.debates[b] ?? 0) + 1;
    const score =
      debate.winner === 'First Speaker' ? 1 : debate.winner === 'Second Speaker' ? 0 : 0.5;
    const z = this.controlled ? lengthCovariate(debate.model1.words, debate.model2.words) : 0;
    this.judged.push({ a, b, score, z });
    // The audience: the For side (the higher stance) wins when it gained more points (more of
    // its room to grow, controlled).
    const forSpeaker = forSpeakerOf(debate.model1.stance, debate.model2.stance);
    const audience = this.controlled ? debate.audienceRelative : debate.audience;
    if (audience && forSpeaker) {
      const firstIsFor = forSpeaker === 'First Speaker';
      const heard = audience === 'TIE' ? 0.5 : (audience === 'FOR') === firstIsFor ? 1 : 0;
      this.heard.push({ a, b, score: heard });
      this.heardDebates[a] = (this.heardDebates[a] ?? 0) + 1;
      this.heardDebates[b] = (this.heardDebates[b] ?? 0) + 1;
    }
  }

  /** Counts the completed pairs whose two debates are both in this fit, once per subject. */
  countPairs(
    pairs: ReadonlyArray<[RatedDebate, RatedDebate]>,
    sides: (d: RatedDebate) => Subject[],
  ): void {
    for (const [original, rematch] of pairs) {
      if (!this.fitted.has(original.id) || !this.fitted.has(rematch.id)) continue;
      const ids = new Set([...sides(original), ...sides(rematch)].map((subject) => subject.id));
      for (const id of ids) {
        const known = this.subjects.get(id);
        if (known) this.pairs[known.index] = (this.pairs[known.index] ?? 0) + 1;
      }
    }
  }

  async rows(options: RateOptions): Promise<LeaderboardRow[]> {
    const size = this.subjects.size;
    const { ratings: judged } = await rate(size, this.judged, {
      ...options,
      controlled: this.controlled,
    });
    const heard =
      this.heard.length > 0
        ? (await rate(size, this.heard, { ...options, controlled: false })).ratings
        : [];
    const rows = [...this.subjects.values()].map(({ subject, index }): LeaderboardRow => {
      const rated = judged[index] ?? { rating: 0, low: 0, high: 0 };
      const audience = heard[index];
      const heardCount = this.heardDebates[index] ?? 0;
      return {
        id: subject.id,
        label: subject.label,
        kind: subject.kind ?? null,
        rating: rated.rating,
        low: rated.low,
        high: rated.high,
        debates: this.debates[index] ?? 0,
        pairs: this.pairs[index] ?? 0,
        audience:
          audience && heardCount > 0
            ? ({ ...audience, debates: heardCount } satisfies AudienceRating)
            : null,
      };
    });
    return rows.sort((x, y) => y.rating - x.rating || x.label.localeCompare(y.label));
  }
}

/**
 * How a board is computed: the bootstrap's, and either the debates' `ratings` as ratingsOf gave
 * them (a recompute sorts every public debate once for all its boards and the cards), or the
 * daily limit to compute them with (none: no limit).
 */
export type BoardOptions = RateOptions & {
  /** The People board's listed people: their listing's name by account id. */
  readonly listings?: ReadonlyMap<string, string>;
} & (
    | { readonly ratings: ReadonlyMap<string, DebateRating>; readonly dailyLimit?: never }
    | { readonly ratings?: never; readonly dailyLimit?: number }
  );

/** Where a judged debate not rated is counted on a board. */
const notRatedKey: Record<
  Exclude<DebateRating, 'RATED' | 'NOT_JUDGED'>,
  Exclude<keyof LeaderboardBoard['notRated'], 'sameSubject'>
> = {
  NOT_RECORDED: 'notRecorded',
  PERSONALITY_HINTS: 'personalityHints',
  DAILY_LIMIT: 'dailyLimit',
};

/**
 * The board of `subject` over the public `debates` (with `pairsOnly`, only those in a completed
 * side-swapped pair): Bradley-Terry from the judges' winners (a tie half a win each way), the
 * audience's minds-changed winners fitted the same way for the second column (with the
 * `controlled` option, the judges' fit with the sides' length covariate, LMArena's style
 * control, and the audience's winners by relative gain), over the debates
 * ratingsOf rates (the others judged are counted in `notRated`, by reason). A debate with a
 * speaker written by the offline speaker goes to the fit shown apart. Not rated either: a debate
 * whose two sides are the same subject (it tells nothing of either); left out altogether: one
 * with a person's side, which only the People board rates (see peopleBoard).
 */
export async function computeBoard(
  debates: readonly RatedDebate[],
  subject: LeaderboardSubject,
  pairsOnly: boolean,
  computedAt: Date,
  options: BoardOptions = {},
): Promise<LeaderboardBoard> {
  const {
    dailyLimit = Infinity,
    ratings = ratingsOf(debates, dailyLimit),
    listings = new Map<string, string>(),
    ...rateOptions
  } = options;
  // In id order, so that the same debates always give the same bootstrap draws.
  const judged = debates
    .filter((debate) => debate.judged)
    .sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const rounds = rateOptions.rounds ?? BOOTSTRAP_ROUNDS;
  const controlled = rateOptions.controlled ?? false;
  if (subject === 'PEOPLE') {
    return peopleBoard(judged, ratings, listings, computedAt, { ...rateOptions, rounds });
  }
  const sorted = judged.filter((debate) => !hasPersonSide(debate));
  const inPairs = new Set(
    completedPairs(sorted).flatMap(([original, rematch]) => [original.id, rematch.id]),
  );
  // A pair counts when both of its debates are rated.
  const pairs = completedPairs(sorted.filter((debate) => ratings.get(debate.id) === 'RATED'));
  const inRatedPairs = new Set(pairs.flatMap(([original, rematch]) => [original.id, rematch.id]));
  const main = new Fit(controlled);
  const apart = new Fit(controlled);
  const notRated = { sameSubject: 0, notRecorded: 0, personalityHints: 0, dailyLimit: 0 };
  const sides = (debate: RatedDebate) =>
    [subjectOf(subject, debate.model1), subjectOf(subject, debate.model2)].filter(
      (side): side is Subject => side !== null,
    );
  for (const debate of sorted) {
    if (pairsOnly && !inPairs.has(debate.id)) continue;
    const { model1, model2 } = debate;
    const rating = ratings.get(debate.id) ?? 'NOT_JUDGED';
    if (rating !== 'RATED') {
      if (rating !== 'NOT_JUDGED') notRated[notRatedKey[rating]] += 1;
      continue;
    }
    if (pairsOnly && !inRatedPairs.has(debate.id)) continue;
    // (Rated: both writers are known.)
    if (!model1.writtenBy || !model2.writtenBy) continue;
    const [first, second] = sides(debate);
    if (!first || !second) continue;
    if (first.id === second.id) {
      notRated.sameSubject += 1;
      continue;
    }
    const offline = model1.writtenBy.kind === 'offline' || model2.writtenBy.kind === 'offline';
    (offline ? apart : main).add(debate, first, second);
  }
  main.countPairs(pairs, sides);
  apart.countPairs(pairs, sides);
  return {
    subject,
    pairsOnly,
    controlled,
    rows: await main.rows({ ...rateOptions, rounds }),
    apart: await apart.rows({ ...rateOptions, rounds }),
    debates: main.count,
    apartDebates: apart.count,
    notRated,
    bootstrapRounds: rounds,
    computedAt: computedAt.toISOString(),
    computeMs: null,
  };
}

/**
 * The People board (computed with all debates: a debate against a person has no rematch), over
 * the judged `debates` in id order. Per group (the model-written debates, and apart those with
 * the offline speaker's side, as computeBoard splits them) two fits of the same games: the
 * MODEL board's rated debates and every rated debate of a person against a model:
 * - each person their own subject: its rows are the models and each person listed (in
 *   `listings`, by account) with at least MIN_PERSON_DEBATES rated debates here, under the
 *   listing's name; the others are fitted (their games inform the models) but never shown;
 * - every person's side as one subject, People: only its row is shown, beside the others.
 * The prior (ties against a virtual 1000) anchors both fits, so people are on the models' scale.
 * `debates`, `apartDebates` and `notRated` count the debates with a person's side only.
 */
async function peopleBoard(
  debates: readonly RatedDebate[],
  ratings: ReadonlyMap<string, DebateRating>,
  listings: ReadonlyMap<string, string>,
  computedAt: Date,
  options: RateOptions & { readonly rounds: number },
): Promise<LeaderboardBoard> {
  const controlled = options.controlled ?? false;
  const group = () => ({
    individual: new Fit(controlled),
    pooled: new Fit(controlled),
    people: 0,
  });
  const main = group();
  const apart = group();
  const notRated = { sameSubject: 0, notRecorded: 0, personalityHints: 0, dailyLimit: 0 };
  const listed = new Set([...listings.keys()].map(personSubjectId));
  const modelSides = (debate: RatedDebate) =>
    [subjectOf('MODEL', debate.model1), subjectOf('MODEL', debate.model2)].filter(
      (side): side is Subject => side !== null,
    );
  for (const debate of debates) {
    const person = hasPersonSide(debate);
    const rating = ratings.get(debate.id) ?? 'NOT_JUDGED';
    if (rating !== 'RATED') {
      if (person && rating !== 'NOT_JUDGED') notRated[notRatedKey[rating]] += 1;
      continue;
    }
    const { model1, model2 } = debate;
    if (!model1.writtenBy || !model2.writtenBy) continue;
    // A person's side: its author, alone, then pooled with every other person.
    const individual = (speaker: RatedSpeaker): Subject | null =>
      speaker.writtenBy?.kind === 'person'
        ? {
            id: personSubjectId(debate.authorId),
            label: listings.get(debate.authorId) ?? PEOPLE_ROW_LABEL,
            kind: 'PERSON',
          }
        : subjectOf('MODEL', speaker);
    const pooled = (speaker: RatedSpeaker): Subject | null =>
      speaker.writtenBy?.kind === 'person'
        ? { id: PEOPLE_ROW_ID, label: PEOPLE_ROW_LABEL, kind: 'PEOPLE' }
        : subjectOf('MODEL', speaker);
    const [first, second] = [individual(model1), individual(model2)];
    const [firstPooled, secondPooled] = [pooled(model1), pooled(model2)];
    if (!first || !second || !firstPooled || !secondPooled) continue;
    if (first.id === second.id) {
      if (person) notRated.sameSubject += 1;
      continue;
    }
    const offline = model1.writtenBy.kind === 'offline' || model2.writtenBy.kind === 'offline';
    const fits = offline ? apart : main;
    fits.individual.add(debate, first, second);
    fits.pooled.add(debate, firstPooled, secondPooled);
    if (person) fits.people += 1;
  }
  // The models' completed pairs (a debate against a person has no rematch).
  const pairs = completedPairs(debates.filter((debate) => ratings.get(debate.id) === 'RATED'));
  const rowsOf = async ({ individual, pooled }: ReturnType<typeof group>) => {
    individual.countPairs(pairs, modelSides);
    const shown = (await individual.rows(options)).filter(
      (row) => row.kind === null || (listed.has(row.id) && row.debates >= MIN_PERSON_DEBATES),
    );
    const people = (await pooled.rows(options)).filter((row) => row.kind === 'PEOPLE');
    return [...shown, ...people].sort(
      (x, y) => y.rating - x.rating || x.label.localeCompare(y.label),
    );
  };
  return {
    subject: 'PEOPLE',
    pairsOnly: false,
    controlled,
    rows: await rowsOf(main),
    apart: await rowsOf(apart),
    debates: main.people,
    apartDebates: apart.people,
    notRated,
    bootstrapRounds: options.rounds,
    computedAt: computedAt.toISOString(),
    computeMs: null,
  };
}

/**
 * Every board: each subject, all debates and completed pairs only (People: all debates), each
 * as rated and controlled for length and the room's start; the controlled ones last.
 */
export const boardKeys = [false, true].flatMap((controlled) =>
  LeaderboardSubject.options.flatMap((subject) =>
    (subject === 'PEOPLE' ? [false] : [false, true]).map((pairsOnly) => ({
      subject,
      pairsOnly,
      controlled,
    })),
  ),
);
