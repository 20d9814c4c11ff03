import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/**
 * One game between two subjects, by their indices: `score` is what `a` scored (1 a win, 0.5 a
 * tie, 0 a loss); `b` scored the rest. A tie is half a win each way, as LMSYS Chatbot Arena
 * counts it.
 */
export interface Game {
  readonly a: number;
  readonly b: number;
  readonly score: number;
}

/** A rating and its 95% interval, on the Elo-like scale. */
export interface Rated {
  readonly rating: number;
  readonly low: number;
  readonly high: number;
}

/** The Elo-like scale: 1000 + 400·log10 of the strength (a strength of 1 is 1000). */
const BASE_RATING = 1000;
const RATING_SCALE = 400;

/**
 * The prior: each subject is also given this many ties against a virtual subject of strength 1
 * (rating 1000). So a subject that never lost (or never won) has a finite rating, and groups of
 * subjects that never met are on one scale; its pull fades as a subject's debates add up.
 */
const PRIOR_TIES = 1;

/** How many bootstrap rounds each interval comes from. */
export const BOOTSTRAP_ROUNDS = 500;

/** The seed of the bootstrap's generator: the same debates always give the same intervals. */
const BOOTSTRAP_SEED = 0x5eed_2024;

const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-10;

/** The rating of a Bradley-Terry log-strength θ (strength e^θ). */
const ratingOf = (theta: number): number => BASE_RATING + (RATING_SCALE * theta) / Math.LN10;

/**
 * Mulberry32: a small seeded generator of numbers in [0, 1) (Tommy Ettinger's, public domain),
 * so that a bootstrap is reproducible.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The `q` quantile (0..1) of ascending `sorted`, linearly interpolated (R's type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const lower = sorted[below] ?? NaN;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] ?? lower;
  return lower + (upper - lower) * (position - below);
}

/** wins[i·n + j]: what i scored against j over their games (a tie adds half to each). */
function winMatrix(subjects: number, games: readonly Game[], picks?: Uint32Array): Float64Array {
  const wins = new Float64Array(subjects * subjects);
  const count = picks ? picks.length : games.length;
  for (let k = 0; k < count; k += 1) {
    const game = games[picks ? (picks[k] ?? 0) : k];
    if (!game) continue;
    const ab = game.a * subjects + game.b;
    const ba = game.b * subjects + game.a;
    wins[ab] = (wins[ab] ?? 0) + game.score;
    wins[ba] = (wins[ba] ?? 0) + 1 - game.score;
  }
  return wins;
}

/** ln(e^x + e^y), without overflow. */
function logAddExp(x: number, y: number): number {
  const top = Math.max(x, y);
  return top + Math.log1p(Math.exp(-Math.abs(x - y)));
}

/** The chance that θx beats θy: e^θx / (e^θx + e^θy). */
const beats = (x: number, y: number) => 1 / (1 + Math.exp(y - x));

/**
 * The log-likelihood of the log-strengths θ: Σ w_ij ln π_ij over ordered pairs, plus each
 * subject's `priorTies` ties against the virtual subject (θ = 0), half a win each way.
 */
function logLikelihood(n: number, wins: Float64Array, priorTies: number, theta: number[]): number {
  let sum = 0;
  for (let i = 0; i < n; i += 1) {
    const ti = theta[i] ?? 0;
    for (let j = 0; j < n; j += 1) {
      const w = wins[i * n + j] ?? 0;
      if (w > 0) sum += w * (ti - logAddExp(ti, theta[j] ?? 0));
    }
    if (priorTies > 0) sum += (priorTies / 2) * (ti - 2 * logAddExp(ti, 0));
  }
  return sum;
}

/** Solves a·x = b (a: m×m, row-major) by Gaussian elimination with partial pivoting. */
function solve(a: Float64Array, b: Float64Array, m: number): Float64Array {
  for (let col = 0; col < m; col += 1) {
    let pivot = col;
    for (let row = col + 1; row < m; row += 1) {
      if (Math.abs(a[row * m + col] ?? 0) > Math.abs(a[pivot * m + col] ?? 0)) pivot = row;
    }
    if (pivot !== col) {
      for (let k = 0; k < m; k += 1) {
        const t = a[col * m + k] ?? 0;
        a[col * m + k] = a[pivot * m + k] ?? 0;
        a[pivot * m + k] = t;
      }
      const t = b[col] ?? 0;
      b[col] = b[pivot] ?? 0;
      b[pivot] = t;
    }
    const diagonal = a[col * m + col] ?? 0;
    if (diagonal === 0) continue;
    for (let row = col + 1; row < m; row += 1) {
      const factor = (a[row * m + col] ?? 0) / diagonal;
      if (factor === 0) continue;
      for (let k = col; k < m; k += 1) {
        a[row * m + k] = (a[row * m + k] ?? 0) - factor * (a[col * m + k] ?? 0);
      }
      b[row] = (b[row] ?? 0) - factor * (b[col] ?? 0);
    }
  }
  const x = new Float64Array(m);
  for (let row = m - 1; row >= 0; row -= 1) {
    let sum = b[row] ?? 0;
    for (let k = row + 1; k < m; k += 1) sum -= (a[row * m + k] ?? 0) * (x[k] ?? 0);
    const diagonal = a[row * m + row] ?? 0;
    x[row] = diagonal === 0 ? 0 : sum / diagonal;
  }
  return x;
}

/**
 * The Bradley-Terry log-strengths θ (strength e^θ) of maximum likelihood, by Newton's method
 * with a halving line search: the log-likelihood is concave in θ, and a few steps reach it.
 * With `priorTies` > 0 each subject also plays that many ties against a virtual subject of
 * θ = 0, which anchors the scale; without, θ is centred on 0 (and every subject must have won
 * and lost within one connected group for it to be finite).
 */
function strengths(
  n: number,
  wins: Float64Array,
  priorTies: number,
  start?: readonly number[],
): number[] {
  let theta = start ? [...start] : new Array<number>(n).fill(0);
  // Without the prior θ is defined up to a constant: subject 0 is held at 0 while solving.
  const free = priorTies > 0 ? 0 : 1;
  const m = n - free;
  let current = logLikelihood(n, wins, priorTies, theta);
  for (let iteration = 0; iteration < MAX_ITERATIONS && m > 0; iteration += 1) {
    const gradient = new Float64Array(m);
    const curvature = new Float64Array(m * m); // the Hessian, negated: positive definite
    for (let i = free; i < n; i += 1) {
      const ti = theta[i] ?? 0;
      let g = 0;
      let h = 0;
      for (let j = 0; j < n; j += 1) {
        if (j === i) continue;
        const games = (wins[i * n + j] ?? 0) + (wins[j * n + i] ?? 0);
        if (games === 0) continue;
        const chance = beats(ti, theta[j] ?? 0);
        g += (wins[i * n + j] ?? 0) - games * chance;
        const spread = games * chance * (1 - chance);
        h += spread;
        if (j >= free) curvature[(i - free) * m + (j - free)] = -spread;
      }
      if (priorTies > 0) {
        const chance = beats(ti, 0);
        g += priorTies / 2 - priorTies * chance;
        h += priorTies * chance * (1 - chance);
      }
      gradient[i - free] = g;
      curvature[(i - free) * m + (i - free)] = h;
    }
    const step = solve(curvature, Float64Array.from(gradient), m);
    let size = 1;
    let next = theta;
    let value = current;
    for (; size > 1e-9; size /= 2) {
      next = theta.map((t, i) => (i < free ? t : t + size * (step[i - free] ?? 0)));
      value = logLikelihood(n, wins, priorTies, next);
      if (value >= current - 1e-12) break;
    }
    const moved = step.reduce((most, d) => Math.max(most, Math.abs(size * d)), 0);
    theta = next;
    current = value;
    if (moved < TOLERANCE) break;
  }
  if (priorTies === 0) {
    const mean = theta.reduce((sum, t) => sum + t, 0) / n;
    theta = theta.map((t) => t - mean);
  }
  return theta;
}

/** The ratings of `subjects` subjects from their games (see `strengths`). */
export function fitRatings(
  subjects: number,
  games: readonly Game[],
  priorTies: number = PRIOR_TIES,
): number[] {
  if (subjects === 0) return [];
  return strengths(subjects, winMatrix(subjects, games), priorTies).map(ratingOf);
}

export interface RateOptions {
  readonly rounds?: number;
  readonly seed?: number;
  readonly priorTies?: number;
}

/**
 * Each subject's rating from all the games, and its 95% interval: the 2.5% and 97.5% quantiles
 * of its ratings over `rounds` bootstrap rounds, each a fit of as many games drawn with
 * replacement, by a generator seeded with `seed`. Yields to the event loop between rounds, so a
 * service computing it keeps answering.
 */
export async function rate(
  subjects: number,
  games: readonly Game[],
  { rounds = BOOTSTRAP_ROUNDS, seed = BOOTSTRAP_SEED, priorTies = PRIOR_TIES }: RateOptions = {},
): Promise<Rated[]> {
  if (subjects === 0) return [];
  const whole = strengths(subjects, winMatrix(subjects, games), priorTies);
  const random = seededRandom(seed);
  const samples = Array.from({ length: subjects }, () => new Array<number>(rounds));
  const picks = new Uint32Array(games.length);
  for (let round = 0; round < rounds; round += 1) {
    for (let k = 0; k < picks.length; k += 1) picks[k] = Math.floor(random() * games.length);
    const fitted = strengths(subjects, winMatrix(subjects, games, picks), priorTies, whole);
    fitted.forEach((theta, i) => {
      const sample = samples[i];
      if (sample) sample[round] = ratingOf(theta);
    });
    if (round % 25 === 24) await yieldToEventLoop();
  }
  return whole.map((theta, i) => {
    const sorted = (samples[i] ?? []).slice().sort((x, y) => x - y);
    return {
      rating: ratingOf(theta),
      low: quantile(sorted, 0.025),
      high: quantile(sorted, 0.975),
    };
  });
}
