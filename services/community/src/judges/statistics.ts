import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { quantile, seededRandom, YIELD_MS } from '../leaderboard/bradley-terry.js';

/**
 * probit(0.975): the normal quantile of a two-sided 95% interval. Written out because
 * simple-statistics' `probit` is Winitzki's approximation of the inverse error function, which
 * gives 1.9572 here: enough to move a published interval's fourth decimal.
 */
export const Z_95 = 1.959963984540054;

/** A 95% interval. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** A share and its 95% interval. */
export interface Share extends Interval {
  readonly value: number;
}

/**
 * The share `successes / trials` and its Wilson score 95% interval (Wilson, 1927):
 * (p̂ + z²/2n ± z·√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n). Unlike p̂ ± z·SE it stays inside [0, 1]
 * and does not collapse to a point at 0% or 100%. null without trials.
 */
export function wilsonInterval(successes: number, trials: number): Share | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = Z_95 * Z_95;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half =
    (Z_95 / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * Cohen's κ of two raters from their table of counts over `categories` categories, row-major
 * (`cells[a·categories + b]`: the subjects the first rater put in category a and the second in
 * b): κ = (p_o − p_e) / (1 − p_e), where p_o is the share on the diagonal and
 * p_e = Σ_k (row share of k)·(column share of k), the agreement two independent raters with these
 * margins would reach by chance. null when it is undefined: no subjects, or both raters always in
 * one same category (p_e = 1).
 */
export function cohensKappa(cells: ArrayLike<number>, categories: number): number | null {
  let total = 0;
  let agreed = 0;
  const rows = new Float64Array(categories);
  const columns = new Float64Array(categories);
  for (let a = 0; a < categories; a += 1) {
    for (let b = 0; b < categories; b += 1) {
      const count = cells[a * categories + b] ?? 0;
      total += count;
      rows[a] = (rows[a] ?? 0) + count;
      columns[b] = (columns[b] ?? 0) + count;
      if (a === b) agreed += count;
    }
  }
  if (total === 0) return null;
  let chance = 0;
  for (let k = 0; k < categories; k += 1) {
    chance += ((rows[k] ?? 0) / total) * ((columns[k] ?? 0) / total);
  }
  if (chance >= 1) return null;
  return (agreed / total - chance) / (1 - chance);
}

/** Fleiss' κ and its two parts. */
export interface FleissKappa {
  /** P̄: the mean agreement within a subject. */
  readonly observed: number;
  /** P̄e: the agreement expected by chance from the categories' overall shares. */
  readonly chance: number;
  readonly kappa: number;
}

/**
 * Fleiss' κ of subjects each rated by several raters (`subjects[i][j]`: how many raters put
 * subject i in category j), generalised to a number of raters n_i that varies by subject:
 * P_i = Σ_j n_ij(n_ij − 1) / (n_i(n_i − 1)), P̄ = the mean of P_i, p_j = Σ_i n_ij / Σ_i n_i,
 * P̄e = Σ_j p_j², κ = (P̄ − P̄e) / (1 − P̄e). With the same raters for every subject it is Fleiss'
 * (1971). Subjects with fewer than two raters are left out (there is no agreement within them).
 * Each subject's P_i is worked out once, so that a bootstrap's many samples of the subjects cost
 * little.
 */
export class FleissTable {
  private readonly categories: number;
  /** Per subject kept: its P_i, its raters n_i, and its n_ij (`categories` a subject). */
  private readonly agreement: Float64Array;
  private readonly raters: Float64Array;
  private readonly counts: Float64Array;
  /** How many times `kappa`'s picks name each subject (its working space). */
  private readonly times: Uint32Array;

  constructor(subjects: readonly (readonly number[])[]) {
    const rated = subjects.filter((row) => row.reduce((sum, n) => sum + n, 0) >= 2);
    this.categories = rated.reduce((most, row) => Math.max(most, row.length), 0);
    this.agreement = new Float64Array(rated.length);
    this.raters = new Float64Array(rated.length);
    this.counts = new Float64Array(rated.length * this.categories);
    this.times = new Uint32Array(rated.length);
    rated.forEach((row, i) => {
      let raters = 0;
      let pairs = 0;
      row.forEach((n, j) => {
        raters += n;
        pairs += n * (n - 1);
        this.counts[i * this.categories + j] = n;
      });
      this.raters[i] = raters;
      this.agreement[i] = pairs / (raters * (raters - 1));
    });
  }

  /** The subjects with two raters or more (the ones `kappa`'s picks index). */
  get size(): number {
    return this.agreement.length;
  }

  /**
   * Fleiss' κ over those subjects, or over `picks` of them (by index, repeats allowed: a
   * bootstrap's sample). null when undefined: no subject, or every rating in one category
   * (P̄e = 1).
   */
  kappa(picks?: ArrayLike<number>): FleissKappa | null {
    const { categories, agreement, raters, counts, times } = this;
    const size = picks ? picks.length : this.size;
    if (size === 0) return null;
    // How many times each subject was picked, then one pass over the subjects in order: much
    // faster than adding each pick's categories as it comes.
    if (picks) {
      times.fill(0);
      for (let k = 0; k < size; k += 1) {
        const i = picks[k] ?? 0;
        times[i] = (times[i] ?? 0) + 1;
      }
    } else times.fill(1);
    const totals = new Float64Array(categories);
    let ratings = 0;
    let agreed = 0;
    for (let i = 0; i < times.length; i += 1) {
      const weight = times[i] ?? 0;
      if (weight === 0) continue;
      agreed += weight * (agreement[i] ?? 0);
      ratings += weight * (raters[i] ?? 0);
      for (let j = 0; j < categories; j += 1) {
        totals[j] = (totals[j] ?? 0) + weight * (counts[i * categories + j] ?? 0);
      }
    }
    const observed = agreed / size;
    let chance = 0;
    for (let j = 0; j < categories; j += 1) chance += ((totals[j] ?? 0) / ratings) ** 2;
    if (chance >= 1) return null;
    return { observed, chance, kappa: (observed - chance) / (1 - chance) };
  }
}

/** A coefficient of a fitted model and its standard error. */
interface Coefficient {
  readonly estimate: number;
  readonly standardError: number;
}

/** The logistic regression y ~ 1 + x. */
export interface LogisticFit {
  readonly intercept: Coefficient;
  readonly slope: Coefficient;
}

const LOGISTIC_MAX_ITERATIONS = 50;
const LOGISTIC_TOLERANCE = 1e-10;

/** ln(1 + e^t) without overflow. */
const softplus = (t: number) => (t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t)));

/** The log-likelihood of the logistic model (a, b) on the observations. */
function logisticLikelihood(x: ArrayLike<number>, y: ArrayLike<number>, a: number, b: number) {
  let sum = 0;
  for (let i = 0; i < x.length; i += 1) {
    const t = a + b * (x[i] ?? 0);
    sum += (y[i] ?? 0) * t - softplus(t);
  }
  return sum;
}

/**
 * Whether the x of the 0s and the x of the 1s can be split by a threshold (complete or
 * quasi-complete separation, or all y alike): then the likelihood keeps rising as the slope
 * grows, and there is no fit (Albert and Anderson, 1984).
 */
function separated(x: ArrayLike<number>, y: ArrayLike<number>): boolean {
  let zeroLow = Infinity;
  let zeroHigh = -Infinity;
  let oneLow = Infinity;
  let oneHigh = -Infinity;
  for (let i = 0; i < x.length; i += 1) {
    const xi = x[i] ?? 0;
    if (y[i] === 1) {
      oneLow = Math.min(oneLow, xi);
      oneHigh = Math.max(oneHigh, xi);
    } else {
      zeroLow = Math.min(zeroLow, xi);
      zeroHigh = Math.max(zeroHigh, xi);
    }
  }
  if (oneLow === Infinity || zeroLow === Infinity) return true;
  return zeroHigh <= oneLow || oneHigh <= zeroLow;
}

/**
 * The logistic regression of y (0 or 1) on 1 + x by maximum likelihood: Newton's method
 * (iteratively reweighted least squares) from 0, each step halved until the log-likelihood does
 * not fall. Standard errors from the inverse of the Fisher information at the fit,
 * I = Σ p(1 − p)·[1 x; x x²]. null when there is no fit: the data are separated (see
 * `separated`), x does not vary (I is singular), or Newton's method did not converge.
 */
export function logisticRegression(x: ArrayLike<number>, y: ArrayLike<number>): LogisticFit | null {
  if (x.length !== y.length || separated(x, y)) return null;
  let a = 0;
  let b = 0;
  let current = logisticLikelihood(x, y, a, b);
  for (let iteration = 0; iteration < LOGISTIC_MAX_ITERATIONS; iteration += 1) {
    let ga = 0;
    let gb = 0;
    let iaa = 0;
    let iab = 0;
    let ibb = 0;
    for (let i = 0; i < x.length; i += 1) {
      const xi = x[i] ?? 0;
      const p = 1 / (1 + Math.exp(-(a + b * xi)));
      const residual = (y[i] ?? 0) - p;
      const w = p * (1 - p);
      ga += residual;
      gb += residual * xi;
      iaa += w;
      iab += w * xi;
      ibb += w * xi * xi;
    }
    const determinant = iaa * ibb - iab * iab;
    if (!(determinant > 0)) return null;
    const stepA = (ibb * ga - iab * gb) / determinant;
    const stepB = (iaa * gb - iab * ga) / determinant;
    let size = 1;
    let value = logisticLikelihood(x, y, a + stepA, b + stepB);
    while (value < current - 1e-12 && size > 1e-9) {
      size /= 2;
      value = logisticLikelihood(x, y, a + size * stepA, b + size * stepB);
    }
    a += size * stepA;
    b += size * stepB;
    current = value;
    const moved = Math.max(Math.abs(size * stepA), Math.abs(size * stepB));
    // Converged: the information of this last step is the fit's (the step moved nothing).
    if (moved < LOGISTIC_TOLERANCE * (1 + Math.abs(a) + Math.abs(b))) {
      return {
        intercept: { estimate: a, standardError: Math.sqrt(ibb / determinant) },
        slope: { estimate: b, standardError: Math.sqrt(iaa / determinant) },
      };
    }
  }
  return null;
}

export interface BootstrapOptions {
  readonly rounds: number;
  readonly seed: number;
}

/**
 * A statistic of `size` observations, of those picked by index (repeats allowed). Its picks are
 * lent for the call only: the next statistic's overwrite them.
 */
export interface Resampled {
  readonly size: number;
  readonly statistic: (picks: Uint32Array) => number | null;
}

/**
 * The percentile bootstrap 95% interval of each statistic: the 2.5% and 97.5% quantiles of
 * `statistic(picks)` over `rounds` samples, each `size` of its observations drawn by index with
 * replacement, from a generator seeded with `seed` (so the same data always give the same
 * intervals). The statistics share each round's uniform draws (the k-th pick of a statistic of
 * n observations is ⌊u_k·n⌋): each one's samples are still uniform draws of its own
 * observations, and many statistics cost the draws of the largest. A sample whose statistic is
 * undefined (null or not finite) is left out. An interval is null with fewer than two
 * observations or when fewer than half its samples are defined. Yields to the event loop every
 * few milliseconds, so a service computing it keeps answering.
 */
export async function bootstrapIntervals(
  statistics: readonly Resampled[],
  { rounds, seed }: BootstrapOptions,
): Promise<(Interval | null)[]> {
  const largest = statistics.reduce((most, { size }) => Math.max(most, size), 0);
  const random = seededRandom(seed);
  const uniforms = new Float64Array(largest);
  const buffer = new Uint32Array(largest);
  const picks = statistics.map(({ size }) => buffer.subarray(0, size));
  const samples = statistics.map((): number[] => []);
  let since = performance.now();
  for (let round = 0; round < rounds && largest >= 2; round += 1) {
    for (let k = 0; k < largest; k += 1) uniforms[k] = random();
    for (let s = 0; s < statistics.length; s += 1) {
      const { size, statistic } = statistics[s] as Resampled;
      if (size < 2) continue;
      const sample = picks[s] as Uint32Array;
      // A Uint32Array truncates what it stores: ⌊u·size⌋, without Math.floor's call.
      for (let k = 0; k < size; k += 1) sample[k] = (uniforms[k] ?? 0) * size;
      const value = statistic(sample);
      if (value !== null && Number.isFinite(value)) samples[s]?.push(value);
      if (performance.now() - since > YIELD_MS) {
        await yieldToEventLoop();
        since = performance.now();
      }
    }
  }
  return samples.map((values, s) => {
    if ((statistics[s]?.size ?? 0) < 2 || rounds <= 0 || values.length * 2 < rounds) return null;
    values.sort((p, q) => p - q);
    return { low: quantile(values, 0.025), high: quantile(values, 0.975) };
  });
}
