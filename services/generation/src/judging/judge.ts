import {
  criterionWeights,
  judgeCriteria,
  type JudgeCriterion,
  type PanelVerdict,
  type SpeakerModelRef,
  type speakerNames,
  type Verdict,
  type VerdictReading,
  type VerdictScore,
  type WrittenBy,
} from '@debate/contracts';

/** How a reading names the speakers: A is the one the judge reads first. */
export type Position = 'A' | 'B';

/** The debate as one reading presents it: the topic, and each round's two turns, A's first. */
export interface ReadingRequest {
  readonly topic: string;
  readonly turns: ReadonlyArray<{
    readonly position: Position;
    readonly roundTitle: string;
    readonly text: string;
  }>;
}

/** What a judge gives for one reading: every criterion's score and reason per position, and its winner. */
export interface ReadingResult {
  readonly scores: Readonly<
    Record<Position, Readonly<Record<JudgeCriterion, { score: number; reason: string }>>>
  >;
  /** 'tie' when it calls it even. */
  readonly winner: Position | 'tie';
}

/** A reading with what the judge's server said of itself (null offline, or when it said nothing). */
export interface JudgedReading {
  readonly result: ReadingResult;
  readonly serverModel: string | null;
  readonly tokensIn: number | null;
  readonly tokensOut: number | null;
}

/** The port every judge implements: a model of the catalogue, or the offline judge. */
export interface Judge {
  readonly ref: SpeakerModelRef;
  read(request: ReadingRequest, signal: AbortSignal): Promise<JudgedReading>;
}

/** A spoken turn of the debate, as the judge is given it. */
export interface JudgedTurn {
  readonly speaker: 'First Speaker' | 'Second Speaker';
  readonly round: number;
  readonly roundTitle: string;
  readonly text: string;
}

type Debater = (typeof speakerNames)[number];

/** The debate's rounds in one order: as given (First Speaker is A), or swapped (Second is A). */
export function readingOf(
  topic: string,
  turns: readonly JudgedTurn[],
  order: VerdictReading['order'],
): ReadingRequest {
  const a: Debater = order === 'as_given' ? 'First Speaker' : 'Second Speaker';
  const rounds = [...new Set(turns.map((turn) => turn.round))].sort((x, y) => x - y);
  return {
    topic,
    turns: rounds.flatMap((round) => {
      const inRound = turns.filter((turn) => turn.round === round);
      // A speaks first in every round of the reading.
      const ordered = [...inRound].sort(
        (x, y) => Number(y.speaker === a) - Number(x.speaker === a),
      );
      return ordered.map((turn) => ({
        position: turn.speaker === a ? ('A' as const) : ('B' as const),
        roundTitle: turn.roundTitle,
        text: turn.text,
      }));
    }),
  };
}

/** A position's weighted total in a reading (at most 80). */
function total(result: ReadingResult, position: Position): number {
  return judgeCriteria.reduce(
    (sum, criterion) =>
      sum + criterionWeights[criterion] * result.scores[position][criterion].score,
    0,
  );
}

const sum = (values: readonly (number | null)[]): number | null =>
  values.every((value) => value === null)
    ? null
    : values.reduce<number>((all, value) => all + (value ?? 0), 0);

/**
 * Reads the debate twice, the second time with the speakers' order and labels swapped, and
 * makes the scorecard: the winner both readings name, else a tie. Throws when the judge does.
 */
export async function judgeDebate(
  judge: Judge,
  topic: string,
  turns: readonly JudgedTurn[],
  signal: AbortSignal,
): Promise<Verdict> {
  const started = performance.now();
  const orders = ['as_given', 'swapped'] as const;
  const readings: JudgedReading[] = [];
  let firstTokenMs: number | null = null;
  for (const order of orders) {
    readings.push(await judge.read(readingOf(topic, turns, order), signal));
    firstTokenMs ??= performance.now() - started;
  }
  // Each reading's positions back to the speakers they stood for.
  const positionOf = (order: VerdictReading['order'], speaker: Debater): Position =>
    (order === 'as_given') === (speaker === 'First Speaker') ? 'A' : 'B';
  const speakerAt = (order: VerdictReading['order'], position: Position): Debater =>
    positionOf(order, 'First Speaker') === position ? 'First Speaker' : 'Second Speaker';
  const verdictReadings: VerdictReading[] = orders.map((order, index) => {
    const result = (readings[index] as JudgedReading).result;
    return {
      order,
      winner: result.winner === 'tie' ? null : speakerAt(order, result.winner),
      firstTotal: total(result, positionOf(order, 'First Speaker')),
      secondTotal: total(result, positionOf(order, 'Second Speaker')),
    };
  });
  const [asGiven, swapped] = verdictReadings as [VerdictReading, VerdictReading];
  const agreed = asGiven.winner === swapped.winner;
  const scores: VerdictScore[] = (['First Speaker', 'Second Speaker'] as const).flatMap((speaker) =>
    judgeCriteria.map((criterion) => {
      const [first, second] = orders.map(
        (order, index) =>
          (readings[index] as JudgedReading).result.scores[positionOf(order, speaker)][criterion],
      ) as [{ score: number; reason: string }, { score: number; reason: string }];
      return {
        speaker,
        criterion,
        score: (first.score + second.score) / 2,
        reason: first.reason,
      };
    }),
  );
  const mean = (key: 'firstTotal' | 'secondTotal') => (asGiven[key] + swapped[key]) / 2;
  const judgedBy: WrittenBy = {
    kind: judge.ref.kind,
    modelId: judge.ref.id,
    label: judge.ref.label,
    serverModel: readings.findLast((reading) => reading.serverModel !== null)?.serverModel ?? null,
    tokensIn: sum(readings.map((reading) => reading.tokensIn)),
    tokensOut: sum(readings.map((reading) => reading.tokensOut)),
    firstTokenMs: firstTokenMs === null ? null : Math.round(firstTokenMs),
    totalMs: Math.round(performance.now() - started),
    turns: readings.length,
    failedTurns: 0,
  };
  return {
    winner: agreed ? asGiven.winner : null,
    tie: !agreed || asGiven.winner === null,
    tieReason: !agreed ? 'readings_disagree' : asGiven.winner === null ? 'judged_even' : null,
    firstTotal: mean('firstTotal'),
    secondTotal: mean('secondTotal'),
    scores,
    readings: verdictReadings,
    judgedBy,
    // One judge's verdict; Models puts the panel's beside it.
    panel: [],
  };
}

/** A judge's verdict as a panel's entry: the same, without the criteria's scores (or a panel). */
export function panelVerdictOf(verdict: Verdict): PanelVerdict {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { scores, panel, ...outcome } = verdict;
  return outcome;
}
