import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/**
 * One game between two subjects, by their indices: `score` is what `a` scored (1 a win, 0.5 a
 * tie, 0 a loss); `b` scored the rest. A tie is half a win each way, as LMSYS Chatbot Arena
 * counts it. `z`: the game's style covariate, read only by a controlled fit (absent: 0), as
 * LMArena's style control has it: the normalized difference of a's and b's lengths (see
 * `lengthCovariate`).
 */
export interface Game {
  readonly a: number;
  readonly b: number;
  readonly score: number;
  readonly z?: number;
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

/**
 * How long a background computation (a bootstrap, the judges' record) works before it yields to
 * the event loop: by time, not by rounds, since a controlled fit's round costs several times one
 * without a covariate. Short, because a request crosses the event loop several times (the
 * gateway's NATS request in, the store's query out and its answer back, the reply out) and waits
 * for a slice at each: at 10 ms a leaderboard query took ~55 ms while the boards were recomputed.
 */
export const YIELD_MS = 2;

const MAX_ITERATIONS = 100;
/**
 * A Newton step this small (in θ) ends the fit, once taken: Newton's method converges
 * quadratically, so what is left after it is of the order of its square.
 */
const TOLERANCE = 1e-6;

/**
 * A game's length covariate: (wordsA − wordsB) / (wordsA + wordsB), from −1 to 1, and 0 when
 * neither side wrote a word (LMArena's normalized length difference).
 */
export const lengthCovariate = (wordsA: number, wordsB: number): number =>
  wordsA + wordsB === 0 ? 0 : (wordsA - wordsB) / (wordsA + wordsB);

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

/**
 * A controlled fit's games with a covariate, as columns (each game's chance depends on its own
 * z, so they are summed one by one), and where each game is among them (`columnOf[k]`, −1: a
 * game with z = 0, summed into the win matrix, as a fit without a covariate sums every game).
 */
interface Covariates {
  readonly columnOf: Int32Array;
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly score: Float64Array;
  readonly z: Float64Array;
}

/** The games' covariates; null when no game has one (the fit then has no covariate column). */
function covariatesOf(games: readonly Game[]): Covariates | null {
  const columnOf = new Int32Array(games.length).fill(-1);
  const styled: Game[] = [];
  games.forEach((game, k) => {
    if (game.z === undefined || game.z === 0) return;
    columnOf[k] = styled.length;
    styled.push(game);
  });
  if (styled.length === 0) return null;
  return {
    columnOf,
    a: Uint32Array.from(styled, (game) => game.a),
    b: Uint32Array.from(styled, (game) => game.b),
    score: Float64Array.from(styled, (game) => game.score),
    z: Float64Array.from(styled, (game) => game.z ?? 0),
  };
}

/**
 * What a fit reads of its games: `wins[i·n + j]`, what i scored against j over the games without
 * a covariate (a tie adds half to each); and the games with one, each with its weight (how many
 * times the round drew it).
 */
interface Data {
  readonly n: number;
  readonly wins: Float64Array;
  readonly covariates: (Covariates & { readonly weight: Float64Array }) | null;
}

/** The data of `games` (of the draws `picks`, in a bootstrap round). */
function dataOf(
  n: number,
  games: readonly Game[],
  covariates: Covariates | null,
  picks?: Uint32Array,
): Data {
  const wins = new Float64Array(n * n);
  const weight = new Float64Array(covariates ? covariates.a.length : 0);
  const count = picks ? picks.length : games.length;
  for (let k = 0; k < count; k += 1) {
    const index = picks ? (picks[k] ?? 0) : k;
    const column = covariates ? (covariates.columnOf[index] ?? -1) : -1;
    if (column >= 0) {
      weight[column] = (weight[column] ?? 0) + 1;
      continue;
    }
    const game = games[index];
    if (!game) continue;
    const ab = game.a * n + game.b;
    const ba = game.b * n + game.a;
    wins[ab] = (wins[ab] ?? 0) + game.score;
    wins[ba] = (wins[ba] ?? 0) + 1 - game.score;
  }
  return { n, wins, covariates: covariates ? { ...covariates, weight } : null };
}

/** ln(e^x + e^y), without overflow. */
function logAddExp(x: number, y: number): number {
  const top = Math.max(x, y);
  return top + Math.log1p(Math.exp(-Math.abs(x - y)));
}

/** The chance that θx beats θy: e^θx / (e^θx + e^θy). */
const beats = (x: number, y: number) => 1 / (1 + Math.exp(y - x));

/** The log-likelihood at some parameters, and its gradient and Hessian in the unknowns. */
interface Evaluation {
  readonly value: number;
  readonly gradient: Float64Array;
  /** The Hessian, negated (positive definite), m×m row-major. */
  readonly curvature: Float64Array;
}

/**
 * The log-likelihood of the parameters (the log-strengths θ, then γ in a controlled fit), with
 * its gradient and negated Hessian in the unknowns (parameter i ≥ `free` is unknown i − free),
 * in one pass over the games: Σ w_ij ln π_ij over ordered pairs, plus each subject's
 * `priorTies` ties against the virtual subject (θ = 0), half a win each way; in a controlled
 * fit, each game with a covariate s ln σ(d) + (1 − s) ln σ(−d), d = θa − θb + γ·z, and γ's own
 * `priorTies` ties between two even sides, one of which wrote every word (z = 1), so that γ too
 * stays finite when the longer side always won.
 */
function evaluate(
  data: Data,
  priorTies: number,
  params: readonly number[],
  free: number,
): Evaluation {
  const { n, wins, covariates } = data;
  const m = params.length - free;
  const gradient = new Float64Array(m);
  const curvature = new Float64Array(m * m);
  let value = 0;
  for (let i = 0; i < n; i += 1) {
    const ti = params[i] ?? 0;
    const unknown = i >= free;
    let g = 0;
    let h = 0;
    for (let j = 0; j < n; j += 1) {
      if (j === i) continue;
      const w = wins[i * n + j] ?? 0;
      const games = w + (wins[j * n + i] ?? 0);
      if (games === 0) continue;
      const tj = params[j] ?? 0;
      if (w > 0) value += w * (ti - logAddExp(ti, tj));
      if (!unknown) continue;
      const chance = beats(ti, tj);
      g += w - games * chance;
      const spread = games * chance * (1 - chance);
      h += spread;
      if (j >= free) curvature[(i - free) * m + (j - free)] = -spread;
    }
    if (priorTies > 0) {
      value += (priorTies / 2) * (ti - 2 * logAddExp(ti, 0));
      const chance = beats(ti, 0);
      g += priorTies / 2 - priorTies * chance;
      h += priorTies * chance * (1 - chance);
    }
    if (unknown) {
      gradient[i - free] = g;
      curvature[(i - free) * m + (i - free)] = h;
    }
  }
  if (covariates) value += addCovariates(covariates, priorTies, params, free, gradient, curvature);
  return { value, gradient, curvature };
}

/**
 * Adds the games with a covariate to an evaluation, game by game (each weighted by its draws;
 * d = θa − θb + γ·z, p = σ(d)): the gradient s − p for a, p − s for b, (s − p)·z for γ; the
 * curvature p(1 − p) times the outer product of (1, −1, z) over (a, b, γ), summed per pair of
 * subjects first (a board has few subjects and many games). And γ's prior ties. Returns their
 * log-likelihood.
 */
function addCovariates(
  { a, b, score, z, weight }: NonNullable<Data['covariates']>,
  priorTies: number,
  params: readonly number[],
  free: number,
  gradient: Float64Array,
  curvature: Float64Array,
): number {
  const n = params.length - 1;
  const m = gradient.length;
  const last = m - 1;
  const theta = Float64Array.from(params);
  const gamma = theta[n] ?? 0;
  // Per subject: its residuals; per ordered pair (a, b): Σ p(1 − p), and Σ p(1 − p)·z.
  const residuals = new Float64Array(n);
  const spreads = new Float64Array(n * n);
  const spreadsZ = new Float64Array(n * n);
  let value = 0;
  let gammaGradient = 0;
  let gammaCurvature = 0;
  for (let k = 0; k < weight.length; k += 1) {
    const w = weight[k] ?? 0;
    if (w === 0) continue;
    const first = a[k] ?? 0;
    const second = b[k] ?? 0;
    const zk = z[k] ?? 0;
    const s = score[k] ?? 0;
    const d = (theta[first] ?? 0) - (theta[second] ?? 0) + gamma * zk;
    // σ(d) and ln(1 + e^d) from one exponential, without overflow.
    const e = Math.exp(-Math.abs(d));
    const chance = d >= 0 ? 1 / (1 + e) : e / (1 + e);
    value += w * (s * d - (Math.max(d, 0) + Math.log1p(e)));
    const residual = w * (s - chance);
    const spread = w * chance * (1 - chance);
    residuals[first] = (residuals[first] ?? 0) + residual;
    residuals[second] = (residuals[second] ?? 0) - residual;
    const pair = first * n + second;
    spreads[pair] = (spreads[pair] ?? 0) + spread;
    spreadsZ[pair] = (spreadsZ[pair] ?? 0) + spread * zk;
    gammaGradient += residual * zk;
    gammaCurvature += spread * zk * zk;
  }
  for (let i = free; i < n; i += 1) {
    const ii = i - free;
    gradient[ii] = (gradient[ii] ?? 0) + (residuals[i] ?? 0);
    let diagonal = 0;
    let withGamma = 0;
    for (let j = 0; j < n; j += 1) {
      // i as a and as b: the pair's spread either way; z enters with i's sign.
      const spread = (spreads[i * n + j] ?? 0) + (spreads[j * n + i] ?? 0);
      diagonal += spread;
      withGamma += (spreadsZ[i * n + j] ?? 0) - (spreadsZ[j * n + i] ?? 0);
      if (j >= free && j !== i) {
        const cell = ii * m + (j - free);
        curvature[cell] = (curvature[cell] ?? 0) - spread;
      }
    }
    curvature[ii * m + ii] = (curvature[ii * m + ii] ?? 0) + diagonal;
    curvature[ii * m + last] = withGamma;
    curvature[last * m + ii] = withGamma;
  }
  if (priorTies > 0) {
    value += (priorTies / 2) * (gamma - 2 * logAddExp(gamma, 0));
    const chance = beats(gamma, 0);
    gammaGradient += priorTies / 2 - priorTies * chance;
    gammaCurvature += priorTies * chance * (1 - chance);
  }
  gradient[last] = gammaGradient;
  curvature[last * m + last] = gammaCurvature;
  return value;
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
 * The Bradley-Terry parameters of maximum likelihood: the log-strengths θ (strength e^θ), then
 * in a controlled fit γ, the covariate's weight (P(a beats b) = σ(θa − θb + γ·z)), by Newton's
 * method on all of them together with a halving line search: the log-likelihood is concave, and
 * a few steps reach it. With `priorTies` > 0 each subject also plays that many ties against a
 * virtual subject of θ = 0, which anchors the scale; without, θ is centred on 0 (and every
 * subject must have won and lost within one connected group for it to be finite).
 */
function fit(data: Data, priorTies: number, start?: readonly number[]): number[] {
  const { n, covariates } = data;
  const size = n + (covariates ? 1 : 0);
  let params = start ? [...start] : new Array<number>(size).fill(0);
  // Without the prior θ is defined up to a constant: subject 0 is held at 0 while solving.
  const free = priorTies > 0 ? 0 : 1;
  const m = size - free;
  let current = evaluate(data, priorTies, params, free);
  for (let iteration = 0; iteration < MAX_ITERATIONS && m > 0; iteration += 1) {
    const step = solve(current.curvature, Float64Array.from(current.gradient), m);
    const moved = step.reduce((most, d) => Math.max(most, Math.abs(d)), 0);
    const shifted = (scale: number) =>
      params.map((t, i) => (i < free ? t : t + scale * (step[i - free] ?? 0)));
    if (moved < TOLERANCE) {
      params = shifted(1);
      break;
    }
    // A step that does not lower the likelihood (beyond its sum's rounding) is taken.
    const slack = 1e-12 * Math.max(1, Math.abs(current.value));
    for (let scale = 1; scale > 1e-9; scale /= 2) {
      const next = shifted(scale);
      const evaluation = evaluate(data, priorTies, next, free);
      if (evaluation.value >= current.value - slack || scale <= 2e-9) {
        params = next;
        current = evaluation;
        break;
      }
    }
  }
  if (priorTies === 0) {
    const mean = params.slice(0, n).reduce((sum, t) => sum + t, 0) / n;
    params = params.map((t, i) => (i < n ? t - mean : t));
  }
  return params;
}
/** The ratings of `subjects` subjects from their games (see `fit`; without a covariate). */
export function fitRatings(
  subjects: number,
  games: readonly Game[],
  priorTies: number = PRIOR_TIES,
): number[] {
  if (subjects === 0) return [];
  return fit(dataOf(subjects, games, null), priorTies).map(ratingOf);
}

export interface RateOptions {
  readonly rounds?: number;
  readonly seed?: number;
  readonly priorTies?: number;
  /**
   * Controlled for the games' covariate z (LMArena's style control): each subject's rating is
   * its strength with γ·z, what the covariate explains, taken out.
   */
  readonly controlled?: boolean;
}

/** A controlled fit's γ (the covariate's weight, on the log-odds scale) and its 95% interval. */
export interface Coefficient {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

/** The 2.5% and 97.5% quantiles of a bootstrap's samples. */
function intervalOf(samples: readonly number[]): { low: number; high: number } {
  const sorted = samples.slice().sort((x, y) => x - y);
  return { low: quantile(sorted, 0.025), high: quantile(sorted, 0.975) };
}

/**
 * Each subject's rating from all the games, and its 95% interval: the 2.5% and 97.5% quantiles
 * of its ratings over `rounds` bootstrap rounds, each a fit of as many games drawn with
 * replacement, by a generator seeded with `seed`; `controlled`, also γ and its interval (else
 * null; 0 when no game has a covariate). Yields to the event loop between rounds, every
 * YIELD_MS, so a service computing it keeps answering.
 */
export async function rate(
  subjects: number,
  games: readonly Game[],
  {
    rounds = BOOTSTRAP_ROUNDS,
    seed = BOOTSTRAP_SEED,
    priorTies = PRIOR_TIES,
    controlled = false,
  }: RateOptions = {},
): Promise<{ ratings: Rated[]; gamma: Coefficient | null }> {
  if (subjects === 0) {
    return { ratings: [], gamma: controlled ? { value: 0, low: 0, high: 0 } : null };
  }
  const covariates = controlled ? covariatesOf(games) : null;
  const whole = fit(dataOf(subjects, games, covariates), priorTies);
  const random = seededRandom(seed);
  const samples = Array.from({ length: whole.length }, () => new Array<number>(rounds));
  const picks = new Uint32Array(games.length);
  let working = performance.now();
  for (let round = 0; round < rounds; round += 1) {
    for (let k = 0; k < picks.length; k += 1) picks[k] = Math.floor(random() * games.length);
    const fitted = fit(dataOf(subjects, games, covariates, picks), priorTies, whole);
    fitted.forEach((value, i) => {
      const sample = samples[i];
      if (sample) sample[round] = value;
    });
    if (performance.now() - working >= YIELD_MS) {
      await yieldToEventLoop();
      working = performance.now();
    }
  }
  const ratings = whole.slice(0, subjects).map((theta, i): Rated => {
    const { low, high } = intervalOf(samples[i] ?? []);
    return { rating: ratingOf(theta), low: ratingOf(low), high: ratingOf(high) };
  });
  let gamma: Coefficient | null = null;
  if (controlled) {
    gamma = covariates
      ? { value: whole[subjects] ?? 0, ...intervalOf(samples[subjects] ?? []) }
      : { value: 0, low: 0, high: 0 };
  }
  return { ratings, gamma };
}
