import { describe, expect, it } from '@jest/globals';
import {
  fitRatings,
  type Game,
  lengthCovariate,
  quantile,
  rate,
  seededRandom,
} from './bradley-terry.js';

/** The chance that a subject rated `a` beats one rated `b` (the Elo-like scale's meaning). */
const chance = (a: number, b: number) => 1 / (1 + 10 ** ((b - a) / 400));

/**
 * `count` games between subjects of known ratings, each pair drawn at random, a share `ties` of
 * them a tie, the rest won as Bradley-Terry says, from a generator seeded with `seed`.
 */
function simulate(ratings: readonly number[], count: number, seed: number, ties = 0.1): Game[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const a = Math.floor(random() * ratings.length);
    const b = (a + 1 + Math.floor(random() * (ratings.length - 1))) % ratings.length;
    if (random() < ties) return { a, b, score: 0.5 };
    return { a, b, score: random() < chance(ratings[a] ?? 0, ratings[b] ?? 0) ? 1 : 0 };
  });
}

/** The subjects' indices, highest rating first. */
const order = (ratings: readonly number[]) =>
  ratings.map((_, i) => i).sort((x, y) => (ratings[y] ?? 0) - (ratings[x] ?? 0));

describe('Bradley-Terry', () => {
  it('gives 3 wins in 4 a strength three times the loser’s: 400·log10 3 points apart', () => {
    const games: Game[] = [
      { a: 0, b: 1, score: 1 },
      { a: 0, b: 1, score: 1 },
      { a: 1, b: 0, score: 0 },
      { a: 1, b: 0, score: 1 },
    ];
    const [first = 0, second = 0] = fitRatings(2, games, 0);
    expect(first - second).toBeCloseTo(400 * Math.log10(3), 6);
    // Without a prior the scale is centred: the geometric mean of the strengths is 1.
    expect(first + second).toBeCloseTo(2000, 6);
  });

  it('counts a tie as half a win each way', () => {
    // A win each and two ties: even. A win and a tie against nothing: 1.5 to 0.5, three times.
    expect(
      fitRatings(
        2,
        [
          { a: 0, b: 1, score: 1 },
          { a: 0, b: 1, score: 0 },
          { a: 0, b: 1, score: 0.5 },
          { a: 1, b: 0, score: 0.5 },
        ],
        0,
      ),
    ).toEqual([expect.closeTo(1000, 6), expect.closeTo(1000, 6)]);
    const [first = 0, second = 0] = fitRatings(
      2,
      [
        { a: 0, b: 1, score: 1 },
        { a: 0, b: 1, score: 0.5 },
      ],
      0,
    );
    expect(first - second).toBeCloseTo(400 * Math.log10(3), 6);
  });

  it('keeps an undefeated subject finite, and one that never played at 1000', () => {
    const ratings = fitRatings(3, [
      { a: 0, b: 1, score: 1 },
      { a: 0, b: 1, score: 1 },
    ]);
    expect(ratings.every(Number.isFinite)).toBe(true);
    expect(ratings[0]).toBeGreaterThan(1000);
    expect(ratings[1]).toBeLessThan(1000);
    expect(ratings[2]).toBeCloseTo(1000, 6);
  });

  it('ranks simulated debates between subjects of known strengths in that order', async () => {
    const known = [1300, 1150, 1000, 850];
    // Shuffled, so that the order cannot come from the indices.
    const shuffled = [1000, 1300, 850, 1150];
    const { ratings: rated } = await rate(4, simulate(shuffled, 1_000, 7), { rounds: 200 });
    expect(order(rated.map((row) => row.rating))).toEqual(order(shuffled));
    // The ratings alone (the intervals' bootstrap is checked above): the fit `rate` starts from.
    expect(order(fitRatings(4, simulate(shuffled, 1_000, 8, 0)))).toEqual(order(shuffled));
    expect(known.map((r) => shuffled.indexOf(r))).toEqual(order(shuffled));
    for (const row of rated) {
      expect(row.low).toBeLessThanOrEqual(row.rating);
      expect(row.high).toBeGreaterThanOrEqual(row.rating);
    }
    // Without ties (a tie drawn regardless of strength narrows the gaps), the scale is known
    // only up to a shift: centred, each rating is near the one it was simulated with.
    const centre = (values: readonly number[]) =>
      values.map((value) => value - values.reduce((sum, v) => sum + v, 0) / values.length);
    const fitted = centre(fitRatings(4, simulate(shuffled, 2_000, 9, 0)));
    centre(shuffled).forEach((value, i) => {
      expect(Math.abs((fitted[i] ?? 0) - value)).toBeLessThan(40);
    });
  });

  it('narrows every interval as debates are added: 100, then 1,000', async () => {
    const known = [1300, 1150, 1000, 850];
    const games = simulate(known, 1_000, 11);
    // Fewer bootstrap rounds than the product's 500: the widths settle well before that.
    const { ratings: few } = await rate(4, games.slice(0, 100), { rounds: 200 });
    const { ratings: many } = await rate(4, games, { rounds: 200 });
    const width = (row: { low: number; high: number }) => row.high - row.low;
    many.forEach((row, i) => {
      expect(width(row)).toBeLessThan(width(few[i] ?? row));
    });
    // By about √10, as a standard error does.
    const mean = (rows: typeof few) => rows.reduce((sum, row) => sum + width(row), 0) / 4;
    expect(mean(few) / mean(many)).toBeGreaterThan(2);
  });

  it('gives the same intervals for the same debates (a seeded bootstrap)', async () => {
    const games = simulate([1100, 900, 1000], 300, 3);
    const rounds = 100;
    expect(await rate(3, games, { rounds })).toEqual(await rate(3, games, { rounds }));
    expect(await rate(3, games, { rounds, seed: 1 })).not.toEqual(
      await rate(3, games, { rounds, seed: 2 }),
    );
  });
});

describe('Bradley-Terry controlled for length (LMArena’s style control)', () => {
  /**
   * `count` games between subjects of known ratings, each writing about `words[i]` words (±30%),
   * won with the chance σ(θa − θb + γ·z): the judges prefer the longer side by `gamma`.
   */
  function simulateLength(
    ratings: readonly number[],
    words: readonly number[],
    gamma: number,
    count: number,
    seed: number,
  ): Game[] {
    const random = seededRandom(seed);
    const written = (i: number) => Math.round((words[i] ?? 0) * (0.7 + 0.6 * random()));
    return Array.from({ length: count }, () => {
      const a = Math.floor(random() * ratings.length);
      const b = (a + 1 + Math.floor(random() * (ratings.length - 1))) % ratings.length;
      const z = lengthCovariate(written(a), written(b));
      const logit = (Math.LN10 * ((ratings[a] ?? 0) - (ratings[b] ?? 0))) / 400 + gamma * z;
      return { a, b, z, score: random() < 1 / (1 + Math.exp(-logit)) ? 1 : 0 };
    });
  }

  it('recovers the judges’ preference for length, and the true order when one model writes longer', async () => {
    // Subject 1 is the second best and writes twice as much as the others: with γ = 3 its
    // debates against them start about +1 in log-odds (σ(1) ≈ 73%), some 170 rating points.
    const known = [1100, 1000, 950, 850];
    const words = [300, 600, 300, 300];
    const games = simulateLength(known, words, 3, 4_000, 21);
    const controlled = await rate(4, games, { rounds: 100, controlled: true });
    const plain = await rate(4, games, { rounds: 100 });

    const { gamma } = controlled;
    expect(gamma?.value).toBeGreaterThan(2);
    expect(gamma?.value).toBeLessThan(4);
    expect(gamma?.low).toBeGreaterThan(0);
    expect(gamma?.low).toBeLessThan(3);
    expect(gamma?.high).toBeGreaterThan(3);
    expect(plain.gamma).toBeNull();

    const ratings = (rated: typeof plain) => rated.ratings.map((row) => row.rating);
    expect(order(ratings(controlled))).toEqual([0, 1, 2, 3]);
    // Uncontrolled, the long writer passes the best model.
    expect(order(ratings(plain))[0]).toBe(1);
    const [, longWriter = 0] = ratings(plain);
    const [, longWriterControlled = 0] = ratings(controlled);
    expect(longWriter - longWriterControlled).toBeGreaterThan(100);
    for (const row of controlled.ratings) {
      expect(row.low).toBeLessThanOrEqual(row.rating);
      expect(row.high).toBeGreaterThanOrEqual(row.rating);
    }
  });

  it('is the fit without a covariate when every game has z = 0, and keeps γ finite when the longer side always won', async () => {
    const games = simulate([1100, 900, 1000], 300, 3);
    const { ratings: plain } = await rate(3, games, { rounds: 50 });
    const zero = await rate(
      3,
      games.map((game) => ({ ...game, z: 0 })),
      { rounds: 50, controlled: true },
    );
    expect(zero.ratings).toEqual(plain);
    expect(zero.gamma).toEqual({ value: 0, low: 0, high: 0 });

    // Three debates between the same two models, each won by the longer side: γ positive and
    // finite (its prior tie), and the models even.
    const swept = await rate(
      2,
      [
        { a: 0, b: 1, score: 1, z: 0.5 },
        { a: 0, b: 1, score: 0, z: -0.4 },
        { a: 1, b: 0, score: 1, z: 0.3 },
      ],
      { rounds: 50, controlled: true },
    );
    expect(swept.gamma?.value).toBeGreaterThan(0);
    expect(Number.isFinite(swept.gamma?.high)).toBe(true);
    expect(swept.ratings.every((row) => Number.isFinite(row.rating))).toBe(true);
  });
});

describe(quantile.name, () => {
  it('interpolates between the two nearest values', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([10, 20], 0.975)).toBeCloseTo(19.75, 9);
    expect(quantile([7], 0.025)).toBe(7);
  });
});
