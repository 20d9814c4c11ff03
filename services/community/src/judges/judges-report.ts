import {
  ALL_JUDGES_LABEL,
  LENGTH_SLOPE_MIN_VERDICTS,
  type JudgeFigure,
  type JudgeRecord,
  type JudgesReport,
  type ReaderAgreement,
  type speakerNames,
  type RoomWinner,
} from '@debate/contracts';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { mean } from 'simple-statistics';
import { BOOTSTRAP_ROUNDS } from '../leaderboard/bradley-terry.js';
import type { JudgedDebate, JudgeVerdict } from './judged-debate.js';
import {
  bootstrapIntervals,
  type BootstrapOptions,
  cohensKappa,
  FleissTable,
  logisticRegression,
  type Resampled,
  wilsonInterval,
  Z_95,
} from './statistics.js';

type Debater = (typeof speakerNames)[number];

export interface JudgesReportOptions {
  /** How many bootstrap rounds each bootstrapped interval comes from. */
  readonly rounds?: number;
  /** The seed of every bootstrap's generator. */
  readonly seed?: number;
}

/** The seed of the bootstrap's generator: the same debates always give the same report. */
const JUDGES_BOOTSTRAP_SEED = 0x1d6e_5eed;

/** The words per unit of the length slope's x. */
const WORDS_PER_UNIT = 100;

/** A verdict's winner, or a side for the readers, as a category of the κs: 0, 1 or 2 (a tie). */
const TIE = 2;
const winnerCategory = (winner: Debater | null) =>
  winner === 'First Speaker' ? 0 : winner === 'Second Speaker' ? 1 : TIE;
const sideCategory = (side: RoomWinner) => (side === 'FOR' ? 0 : side === 'AGAINST' ? 1 : TIE);

/** The readers' two measures, and which field of the debate each reads. */
const readerMeasures = ['readersMinds', 'readersVotes'] as const;
type ReaderMeasure = (typeof readerMeasures)[number];

/** What one row of the record (a judge, or all judges) is computed from. */
interface Observations {
  debates: number;
  /** Verdicts whose two readings named the same winner, of `verdicts`. */
  consistent: number;
  verdicts: number;
  /** Per verdict: the mean margin (points) of the side it read first. */
  readonly firstShownMargins: number[];
  /** Pairs of judges on one debate naming the same winner, of `pairs`. */
  agreedPairs: number;
  pairs: number;
  /** Per debate read with other judges: how many of its judges named First, Second, a tie. */
  readonly panels: (readonly number[])[];
  /** Per debate its model spoke in: its margin for its model's side minus the others'. */
  readonly selfPreferences: number[];
  /** Per decisive verdict: First Speaker's words minus Second's (per 100), and 1 if First won. */
  readonly lengthX: number[];
  readonly lengthY: number[];
  /** Per verdict with a readers' side: the cell (judge's side)·3 + (readers' side). */
  readonly readers: Record<ReaderMeasure, number[]>;
}

const observations = (): Observations => ({
  debates: 0,
  consistent: 0,
  verdicts: 0,
  firstShownMargins: [],
  agreedPairs: 0,
  pairs: 0,
  panels: [],
  selfPreferences: [],
  lengthX: [],
  lengthY: [],
  readers: { readersMinds: [], readersVotes: [] },
});

interface JudgeRow {
  readonly judgeId: string;
  label: string;
  kind: JudgeVerdict['kind'];
  readonly observations: Observations;
}

/**
 * The margin of the side read first, the two readings' mean:
 * ((r0.first − r0.second) + (r1.second − r1.first)) / 2, r0 reading First Speaker first and r1
 * Second Speaker first. What the debate itself deserves is in both readings with opposite signs,
 * and cancels; what is left is the points the judge gives a side for being read first.
 */
function firstShownMargin({ readings: [asGiven, swapped] }: JudgeVerdict): number {
  return (
    (asGiven.firstTotal - asGiven.secondTotal + (swapped.secondTotal - swapped.firstTotal)) / 2
  );
}

/** The judge's margin (points) for `side` over the other speaker, the two readings' mean. */
function marginFor({ readings: [asGiven, swapped] }: JudgeVerdict, side: Debater): number {
  const first =
    (asGiven.firstTotal - asGiven.secondTotal + (swapped.firstTotal - swapped.secondTotal)) / 2;
  return side === 'First Speaker' ? first : -first;
}

/** Which side the judge's own model spoke for, when it wrote exactly one of the two. */
function ownSide(debate: JudgedDebate, judgeId: string): Debater | null {
  const first = debate.firstModelId === judgeId;
  const second = debate.secondModelId === judgeId;
  if (first === second) return null;
  return first ? 'First Speaker' : 'Second Speaker';
}

/** The judge's winner as the readers see the debate: For, Against, or a tie. */
function judgesSide(winner: Debater | null, forSide: Debater): RoomWinner {
  if (winner === null) return 'TIE';
  return winner === forSide ? 'FOR' : 'AGAINST';
}

/** Adds one verdict's observations (those of the verdict alone) to a row. */
function observeVerdict(into: Observations, debate: JudgedDebate, verdict: JudgeVerdict): void {
  const [asGiven, swapped] = verdict.readings;
  into.verdicts += 1;
  if (asGiven.winner === swapped.winner) into.consistent += 1;
  into.firstShownMargins.push(firstShownMargin(verdict));
  if (verdict.winner !== null) {
    into.lengthX.push((debate.words.first - debate.words.second) / WORDS_PER_UNIT);
    into.lengthY.push(verdict.winner === 'First Speaker' ? 1 : 0);
  }
  const { forSide } = debate;
  if (forSide === null) return;
  for (const measure of readerMeasures) {
    const readers = debate[measure];
    if (readers === null) continue;
    const judge = sideCategory(judgesSide(verdict.winner, forSide));
    into.readers[measure].push(judge * 3 + sideCategory(readers));
  }
}

/** One verdict per judge: a judge named twice on a debate counts once, as first named. */
function distinctJudges(verdicts: readonly JudgeVerdict[]): JudgeVerdict[] {
  const seen = new Set<string>();
  return verdicts.filter((verdict) => {
    if (seen.has(verdict.judgeId)) return false;
    seen.add(verdict.judgeId);
    return true;
  });
}

/** How many debates are read between two yields to the event loop (well under YIELD_MS). */
const DEBATES_PER_YIELD = 200;

/** Every judge's observations, and all judges' together. */
async function observe(debates: readonly JudgedDebate[]) {
  const judges = new Map<string, JudgeRow>();
  const all = observations();
  for (const [index, debate] of debates.entries()) {
    if (index % DEBATES_PER_YIELD === DEBATES_PER_YIELD - 1) await yieldToEventLoop();
    const verdicts = distinctJudges(debate.verdicts);
    if (verdicts.length === 0) continue;
    all.debates += 1;
    const rows = verdicts.map((verdict) => {
      let row = judges.get(verdict.judgeId);
      if (!row) {
        row = {
          judgeId: verdict.judgeId,
          label: '',
          kind: verdict.kind,
          observations: observations(),
        };
        judges.set(verdict.judgeId, row);
      }
      // The label and kind of the judge's latest verdict in the input's order.
      row.label = verdict.label;
      row.kind = verdict.kind;
      row.observations.debates += 1;
      observeVerdict(row.observations, debate, verdict);
      observeVerdict(all, debate, verdict);
      return row.observations;
    });
    if (verdicts.length < 2) continue;

    const categories = verdicts.map((verdict) => winnerCategory(verdict.winner));
    const panel = [0, 0, 0];
    for (const category of categories) panel[category] = (panel[category] ?? 0) + 1;
    all.panels.push(panel);
    for (const row of rows) row.panels.push(panel);
    for (let i = 0; i < verdicts.length; i += 1) {
      for (let j = i + 1; j < verdicts.length; j += 1) {
        const agreed = categories[i] === categories[j] ? 1 : 0;
        for (const into of [all, rows[i], rows[j]]) {
          if (!into) continue;
          into.pairs += 1;
          into.agreedPairs += agreed;
        }
      }
    }

    // The baseline of a judge's margin for its model's side: the judges with no model in the
    // debate (a judge whose model wrote the other side would pull it its own way).
    const neutral = verdicts.filter(
      (other) => other.judgeId !== debate.firstModelId && other.judgeId !== debate.secondModelId,
    );
    verdicts.forEach((verdict, i) => {
      const side = ownSide(debate, verdict.judgeId);
      if (side === null || neutral.length === 0) return;
      const others = neutral.map((other) => marginFor(other, side));
      const preference = marginFor(verdict, side) - mean(others);
      rows[i]?.selfPreferences.push(preference);
      all.selfPreferences.push(preference);
    });
  }
  return { judges: [...judges.values()], all };
}

const nothing = (count: number): JudgeFigure => ({ value: null, low: null, high: null, count });

/** A share and its Wilson interval. */
function shareFigure(successes: number, trials: number): JudgeFigure {
  const share = wilsonInterval(successes, trials);
  return share ? { ...share, count: trials } : nothing(trials);
}

/**
 * The figures whose intervals are bootstrapped: each is given its value at once, and its
 * interval when `run` has bootstrapped them all together (they share the draws: see
 * `bootstrapIntervals`).
 */
class Bootstrap {
  private readonly pending: { figure: JudgeFigure; resampled: Resampled }[] = [];

  /** A figure of `count` observations: `statistic()` of them all, or of those picked. */
  figure(count: number, statistic: (picks?: Uint32Array) => number | null): JudgeFigure {
    const value = count > 0 ? statistic() : null;
    if (value === null) return nothing(count);
    const figure: JudgeFigure = { value, low: null, high: null, count };
    this.pending.push({ figure, resampled: { size: count, statistic } });
    return figure;
  }

  /** The mean of `values` (simple-statistics'), or of those picked. */
  mean(values: readonly number[]): JudgeFigure {
    const data = Float64Array.from(values);
    return this.figure(data.length, (picks) => {
      if (!picks) return mean(values);
      let sum = 0;
      for (let k = 0; k < picks.length; k += 1) sum += data[picks[k] ?? 0] ?? 0;
      return sum / picks.length;
    });
  }

  async run(options: BootstrapOptions): Promise<void> {
    const intervals = await bootstrapIntervals(
      this.pending.map(({ resampled }) => resampled),
      options,
    );
    this.pending.forEach(({ figure }, i) => {
      figure.low = intervals[i]?.low ?? null;
      figure.high = intervals[i]?.high ?? null;
    });
  }
}

/**
 * The length slope: the logistic regression of "First Speaker won" on 1 + x over the decisive
 * verdicts, x = (First's words − Second's) / 100; the slope (log-odds per 100 more words) and
 * its Wald interval, slope ± z·SE. null below LENGTH_SLOPE_MIN_VERDICTS verdicts, or when there
 * is no fit (separated, x never varies, or no convergence: see `logisticRegression`).
 */
function lengthSlopeFigure({ lengthX, lengthY }: Observations): JudgeFigure {
  const count = lengthX.length;
  if (count < LENGTH_SLOPE_MIN_VERDICTS) return nothing(count);
  const fit = logisticRegression(lengthX, lengthY);
  if (!fit) return nothing(count);
  const { estimate, standardError } = fit.slope;
  return {
    value: estimate,
    low: estimate - Z_95 * standardError,
    high: estimate + Z_95 * standardError,
    count,
  };
}

/**
 * How often the judge's side is the readers' (Wilson interval), and Cohen's κ of the two over
 * For, Against and a tie (bootstrap interval), from the cells (judge's side)·3 + (readers').
 */
function readerAgreement(cells: readonly number[], bootstrap: Bootstrap): ReaderAgreement {
  const data = Uint8Array.from(cells);
  const agreed = cells.filter((cell) => cell % 4 === 0).length; // 0, 4, 8: the diagonal
  const table = new Float64Array(9);
  return {
    agreement: shareFigure(agreed, cells.length),
    kappa: bootstrap.figure(cells.length, (picks) => {
      table.fill(0);
      const size = picks ? picks.length : data.length;
      for (let k = 0; k < size; k += 1) {
        const cell = data[picks ? (picks[k] ?? 0) : k] ?? 0;
        table[cell] = (table[cell] ?? 0) + 1;
      }
      return cohensKappa(table, 3);
    }),
  };
}

/** One row of the record from its observations; its bootstrapped intervals come with `run`. */
function figures(seen: Observations, bootstrap: Bootstrap) {
  const panels = new FleissTable(seen.panels);
  return {
    debates: seen.debates,
    positionConsistency: shareFigure(seen.consistent, seen.verdicts),
    firstShownMargin: bootstrap.mean(seen.firstShownMargins),
    pairwiseAgreement: shareFigure(seen.agreedPairs, seen.pairs),
    fleissKappa: bootstrap.figure(panels.size, (picks) => panels.kappa(picks)?.kappa ?? null),
    selfPreference: bootstrap.mean(seen.selfPreferences),
    lengthSlope: lengthSlopeFigure(seen),
    readersMinds: readerAgreement(seen.readers.readersMinds, bootstrap),
    readersVotes: readerAgreement(seen.readers.readersVotes, bootstrap),
  };
}

/**
 * The judges' record of the judged public debates (the figures are defined in the contract's
 * `JudgeRecord`; how each is computed, here):
 * - positionConsistency: per (judge, debate), readings[0].winner === readings[1].winner; the
 *   share, with its Wilson score interval;
 * - firstShownMargin: per (judge, debate), ((r0.first − r0.second) + (r1.second − r1.first)) / 2
 *   (r0 reads First Speaker first, r1 Second Speaker first); the mean, with a percentile
 *   bootstrap interval over those observations;
 * - pairwiseAgreement: every unordered pair of the judges of a debate read by two or more (a
 *   judge's row: the pairs it is in) naming the same winner (First, Second or a tie); the share
 *   of pairs, Wilson interval, `count` the pairs;
 * - fleissKappa: over the debates read by two or more judges (a judge's row: those it read, with
 *   all their judges' ratings), three categories, raters per debate varying: P_i =
 *   Σ_j n_ij(n_ij − 1) / (n_i(n_i − 1)), P̄ their mean, p_j = Σ_i n_ij / Σ_i n_i, P̄e = Σ_j p_j²,
 *   κ = (P̄ − P̄e) / (1 − P̄e); a bootstrap interval over the debates;
 * - selfPreference: for judge J, the debates where exactly one side was written by J's own model
 *   (its model id is J's judgeId) and at least one other judge read it: J's margin for that side
 *   (the mean over its two readings of that side's total minus the other's) minus the mean of
 *   the other judges' margins for it; the mean, bootstrap interval. All judges: every judge's
 *   observations together;
 * - lengthSlope: per (judge, debate) with a winner, y = 1 if First Speaker won, x = (First's
 *   words − Second's) / 100; the slope of the logistic regression y ~ 1 + x, with its Wald
 *   interval (see `lengthSlopeFigure`);
 * - readersMinds / readersVotes: per (judge, debate) with a For side and a readers' side, the
 *   judge's side (For if its winner argued For, Against if the other speaker won, a tie if none)
 *   against the readers'; the share equal (Wilson) and Cohen's κ (bootstrap interval).
 *
 * All judges' row pools every judge's observations. A judge's label and kind are those of its
 * latest verdict in the input's order. A judge named twice on one debate counts once. `debates`
 * (the report's and all judges') counts the debates with at least one verdict. Every bootstrap
 * draws `rounds` samples of its own observations, all from one generator seeded with `seed`
 * (they share its draws: see `bootstrapIntervals`), so the same debates always give the same
 * report. It yields to the event loop as it goes. `computeMs` is left to the caller.
 */
export async function computeJudgesReport(
  debates: readonly JudgedDebate[],
  computedAt: Date,
  { rounds = BOOTSTRAP_ROUNDS, seed = JUDGES_BOOTSTRAP_SEED }: JudgesReportOptions = {},
): Promise<JudgesReport> {
  const seen = await observe(debates);
  const bootstrap = new Bootstrap();
  const judges: JudgeRecord[] = [];
  for (const row of seen.judges) {
    const { judgeId, label, kind } = row;
    judges.push({ judgeId, label, kind, ...figures(row.observations, bootstrap) });
    await yieldToEventLoop();
  }
  const all: JudgeRecord = {
    judgeId: null,
    label: ALL_JUDGES_LABEL,
    kind: null,
    ...figures(seen.all, bootstrap),
  };
  await bootstrap.run({ rounds, seed });
  judges.sort(
    (a, b) =>
      b.debates - a.debates ||
      a.label.localeCompare(b.label, 'en') ||
      (a.judgeId ?? '').localeCompare(b.judgeId ?? '', 'en'),
  );
  return {
    judges,
    all,
    debates: seen.all.debates,
    bootstrapRounds: rounds,
    computedAt: computedAt.toISOString(),
    computeMs: null,
  };
}
