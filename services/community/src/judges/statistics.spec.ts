import { describe, expect, it } from '@jest/globals';
import { mean } from 'simple-statistics';
import { seededRandom } from '../leaderboard/bradley-terry.js';
import {
  bootstrapIntervals,
  cohensKappa,
  FleissTable,
  logisticRegression,
  wilsonInterval,
} from './statistics.js';

describe('the judges’ statistics, against published worked examples', () => {
  it('gives Newcombe’s Wilson interval for 81 of 263 (Statistics in Medicine 17:857, 1998)', () => {
    // Newcombe's Table I, example (a): 81/263, score method without continuity correction.
    // (With simple-statistics' approximate probit(0.975), 1.9572, the low end would be 0.2554.)
    const share = wilsonInterval(81, 263);
    expect(share?.value).toBeCloseTo(81 / 263, 10);
    expect(share?.low).toBeCloseTo(0.2553, 4);
    expect(share?.high).toBeCloseTo(0.3662, 4);
    // And its 0/20 example: the interval still has a width, 0 to 0.1611.
    expect(wilsonInterval(0, 20)).toEqual({
      value: 0,
      low: 0,
      high: expect.closeTo(0.1611, 4),
    });
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('gives Wikipedia’s Cohen’s κ of 0.4 for the 50 grant applications', () => {
    // "Cohen's kappa", simple example: 20 both yes, 15 both no, 5 and 10 disagreeing;
    // p_o = 0.7, p_e = 0.5.
    expect(cohensKappa([20, 5, 10, 15], 2)).toBeCloseTo(0.4, 10);
    // Perfect agreement on several categories is 1; on one category only it is undefined.
    expect(cohensKappa([3, 0, 0, 4], 2)).toBeCloseTo(1, 10);
    expect(cohensKappa([5, 0, 0, 0], 2)).toBeNull();
    expect(cohensKappa([], 0)).toBeNull();
  });

  it('gives Wikipedia’s Fleiss’ κ of 0.210 for 10 subjects rated by 14 raters', () => {
    // "Fleiss' kappa", worked example: P̄ = 0.378, P̄e = 0.213, κ = 0.210.
    const subjects = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    const fleiss = new FleissTable(subjects).kappa();
    expect(fleiss?.observed).toBeCloseTo(0.378, 3);
    expect(fleiss?.chance).toBeCloseTo(0.213, 3);
    expect(fleiss?.kappa).toBeCloseTo(0.21, 3);
  });

  it('generalises Fleiss’ κ to subjects with different numbers of raters', () => {
    // Two raters who always agree, then three who split 2–1: P_1 = 1, P_2 = 2/6.
    const fleiss = new FleissTable([
      [2, 0, 0],
      [0, 2, 1],
      [1, 0, 0],
    ]).kappa();
    expect(fleiss?.observed).toBeCloseTo((1 + 1 / 3) / 2, 10);
    // The one-rater subject is left out: 5 ratings, 2 First, 2 Second, 1 tie.
    expect(fleiss?.chance).toBeCloseTo(0.4 ** 2 + 0.4 ** 2 + 0.2 ** 2, 10);
    expect(new FleissTable([[0, 3, 0]]).kappa()).toBeNull();
    expect(new FleissTable([[1, 0, 0]]).kappa()).toBeNull();
    // Picks choose the subjects, repeats allowed.
    const table = new FleissTable([
      [2, 0],
      [1, 1],
    ]);
    expect(table.kappa([1, 1, 0])?.observed).toBeCloseTo(1 / 3, 10);
  });

  it('fits Wikipedia’s hours studied against passing the exam', () => {
    // "Logistic regression", example: 20 students; intercept −4.0777 (SE 1.7610), hours 1.5046
    // (SE 0.6287).
    const hours = [
      0.5, 0.75, 1, 1.25, 1.5, 1.75, 1.75, 2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 4, 4.25, 4.5, 4.75, 5,
      5.5,
    ];
    const passed = [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1];
    const fit = logisticRegression(hours, passed);
    expect(fit?.intercept.estimate).toBeCloseTo(-4.0777, 4);
    expect(fit?.intercept.standardError).toBeCloseTo(1.761, 3);
    expect(fit?.slope.estimate).toBeCloseTo(1.5046, 4);
    expect(fit?.slope.standardError).toBeCloseTo(0.6287, 4);
  });

  it('gives no logistic fit when the data are separated or x does not vary', () => {
    expect(logisticRegression([1, 2, 3, 4], [0, 0, 1, 1])).toBeNull();
    // Quasi-complete: the classes only touch at x = 2.
    expect(logisticRegression([1, 2, 2, 3], [0, 0, 1, 1])).toBeNull();
    expect(logisticRegression([1, 2, 3], [1, 1, 1])).toBeNull();
    expect(logisticRegression([2, 2, 2, 2], [0, 1, 0, 1])).toBeNull();
    expect(logisticRegression([], [])).toBeNull();
  });

  it('bootstraps an interval around the mean that is reproducible and holds it', async () => {
    const random = seededRandom(3);
    const values = Array.from({ length: 400 }, () => 5 + (random() - 0.5) * 4);
    const meanOf = (picks: Uint32Array) => {
      let sum = 0;
      for (const pick of picks) sum += values[pick] ?? 0;
      return sum / picks.length;
    };
    const options = { rounds: 300, seed: 1 };
    const [interval, half] = await bootstrapIntervals(
      [
        { size: values.length, statistic: meanOf },
        { size: values.length / 2, statistic: meanOf },
      ],
      options,
    );
    expect(interval?.low).toBeLessThan(mean(values));
    expect(interval?.high).toBeGreaterThan(mean(values));
    // The standard error of the mean is about (4/√12)/√400 ≈ 0.058: the interval about ±0.11.
    const width = (interval?.high ?? 0) - (interval?.low ?? 0);
    expect(width).toBeGreaterThan(0.15);
    expect(width).toBeLessThan(0.3);
    // Half the observations: √2 times wider (its picks come from the first 200 only).
    const halfWidth = (half?.high ?? 0) - (half?.low ?? 0);
    expect(halfWidth / width).toBeGreaterThan(1.2);
    expect(halfWidth / width).toBeLessThan(1.7);
    const mean200 = mean(values.slice(0, 200));
    expect(half?.low).toBeLessThan(mean200);
    expect(half?.high).toBeGreaterThan(mean200);
    expect(await bootstrapIntervals([{ size: values.length, statistic: meanOf }], options)).toEqual(
      [interval],
    );
    expect(
      await bootstrapIntervals(
        [
          { size: 1, statistic: meanOf },
          { size: values.length, statistic: () => null },
        ],
        options,
      ),
    ).toEqual([null, null]);
  });
});
