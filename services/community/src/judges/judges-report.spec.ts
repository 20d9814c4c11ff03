import { describe, expect, it } from '@jest/globals';
import {
  ALL_JUDGES_LABEL,
  type JudgeFigure,
  JudgesReport,
  type speakerNames,
  type VerdictReading,
  type RoomWinner,
} from '@debate/contracts';
import { seededRandom } from '../leaderboard/bradley-terry.js';
import type { JudgedDebate, JudgeVerdict } from './judged-debate.js';
import { computeJudgesReport } from './judges-report.js';

type Debater = (typeof speakerNames)[number];

const computedAt = new Date('2026-11-27T12:00:00.000Z');

/** A reading with these totals, won by the higher (a tie when equal). */
function reading(order: VerdictReading['order'], first: number, second: number): VerdictReading {
  const firstTotal = Math.min(80, Math.max(0, Math.round(first)));
  const secondTotal = Math.min(80, Math.max(0, Math.round(second)));
  const winner =
    firstTotal > secondTotal ? 'First Speaker' : secondTotal > firstTotal ? 'Second Speaker' : null;
  return { order, winner, firstTotal, secondTotal };
}

/**
 * A judge's verdict from its two readings' totals (First Speaker's, then Second's, in each):
 * the readings' winner when they agree, else a tie.
 */
function verdict(
  judgeId: string,
  asGiven: readonly [number, number],
  swapped: readonly [number, number],
  label = `Judge ${judgeId}`,
): JudgeVerdict {
  const readings = [
    reading('as_given', asGiven[0], asGiven[1]),
    reading('swapped', swapped[0], swapped[1]),
  ] as const;
  const winner = readings[0].winner === readings[1].winner ? readings[0].winner : null;
  return { judgeId, label, kind: 'model', winner, readings };
}

function debate(id: string, verdicts: JudgeVerdict[], rest: Partial<JudgedDebate> = {}) {
  return {
    id,
    firstModelId: null,
    secondModelId: null,
    forSide: 'First Speaker',
    words: { first: 1000, second: 1000 },
    verdicts,
    readersMinds: null,
    readersVotes: null,
    ...rest,
  } satisfies JudgedDebate;
}

/** A draw close to a standard normal: the sum of 12 uniforms, less 6 (Irwin–Hall). */
const gaussian = (random: () => number) => {
  let sum = -6;
  for (let k = 0; k < 12; k += 1) sum += random();
  return sum;
};

const FIRST_SHOWN_BIAS = 6; // points to the side read first
const LENGTH_BIAS = 0.4; // log-odds per 100 more words
const SELF_BIAS = 5; // points to its own model's side
/**
 * The pairs of models that write a debate's two sides. m1 and m2 meet too: a judge's
 * self-preference is measured against the judges with no model in the debate, so the
 * self-preferring m1's points against m2's side do not show as a self-preference of the fair m2.
 */
const PAIRS = [
  ['m1', 'm2'],
  ['m1', 'm3'],
  ['m1', 'm4'],
  ['m2', 'm3'],
  ['m2', 'm4'],
  ['m3', 'm4'],
] as const;

/**
 * `count` debates, each side with a hidden quality (uniform, ±1.5) and a word count (500 to
 * 1,500), written by one of the PAIRS of models, each read twice by five judges:
 * - 'fair' scores each side 40 + 8·quality + noise (sd 3) in each reading;
 * - 'first' as 'fair', plus FIRST_SHOWN_BIAS points to the side it reads first;
 * - 'longer' names First Speaker the winner, in both readings, with the chance
 *   σ(LENGTH_BIAS·(First's words − Second's)/100 + 0.3·(First's quality − Second's)), a small
 *   quality term (a large one, left out of the fit, would shrink the slope fitted on length alone);
 * - 'm1' as 'fair', plus SELF_BIAS points to the side its model m1 wrote;
 * - 'm2' as 'fair', and a speaker model too (so it has a self-preference, of none).
 * The readers move toward the better side four times in five (minds changed), and vote at random.
 */
function simulate(count: number, seed: number): JudgedDebate[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return Array.from({ length: count }, (_, index) => {
    const quality = { first: 3 * random() - 1.5, second: 3 * random() - 1.5 };
    const words = {
      first: 500 + Math.round(1000 * random()),
      second: 500 + Math.round(1000 * random()),
    };
    const pair = pick(PAIRS);
    const [firstModelId, secondModelId] = random() < 0.5 ? pair : [pair[1], pair[0]];
    const forSide: Debater = random() < 0.5 ? 'First Speaker' : 'Second Speaker';
    const score = (side: 'first' | 'second') => 40 + 8 * quality[side] + 3 * gaussian(random);
    /** Two readings scored by `score`, plus `bonus` to a side (by the reading and the side). */
    const scored = (bonus: (swapped: boolean, side: 'first' | 'second') => number) =>
      [false, true].map(
        (swapped) =>
          [
            score('first') + bonus(swapped, 'first'),
            score('second') + bonus(swapped, 'second'),
          ] as const,
      ) as [readonly [number, number], readonly [number, number]];
    const ownBonus = (judge: string) => (_: boolean, side: 'first' | 'second') =>
      (side === 'first' ? firstModelId : secondModelId) === judge ? SELF_BIAS : 0;
    const firstShownBonus = (swapped: boolean, side: 'first' | 'second') =>
      (side === 'first') !== swapped ? FIRST_SHOWN_BIAS : 0;

    const lengthOdds =
      (LENGTH_BIAS * (words.first - words.second)) / 100 + 0.3 * (quality.first - quality.second);
    const firstWins = random() < 1 / (1 + Math.exp(-lengthOdds));
    const margin = 5 + Math.abs(3 * gaussian(random));
    const loser = 40 + 3 * gaussian(random);
    const longer: readonly [number, number] = firstWins
      ? [loser + margin, loser]
      : [loser, loser + margin];

    const firstIsBetter = quality.first > quality.second;
    const forIsBetter = (forSide === 'First Speaker') === firstIsBetter;
    const better: RoomWinner = forIsBetter ? 'FOR' : 'AGAINST';
    const worse: RoomWinner = forIsBetter ? 'AGAINST' : 'FOR';
    const readersMinds = random() < 0.8 ? better : random() < 0.5 ? 'TIE' : worse;
    const readersVotes = pick<RoomWinner>(['FOR', 'AGAINST', 'TIE']);

    return {
      id: `d${index}`,
      firstModelId,
      secondModelId,
      forSide,
      words,
      verdicts: [
        verdict('fair', ...scored(() => 0)),
        verdict('first', ...scored(firstShownBonus)),
        verdict('longer', longer, longer),
        verdict('m1', ...scored(ownBonus('m1'))),
        verdict('m2', ...scored(() => 0)),
      ],
      readersMinds,
      readersVotes,
    };
  });
}

/** Whether a figure's interval holds `value`. */
const holds = (figure: JudgeFigure, value: number) =>
  figure.low !== null && figure.high !== null && figure.low <= value && value <= figure.high;

const empty = (count = 0): JudgeFigure => ({ value: null, low: null, high: null, count });

describe('the judges’ record', () => {
  const DEBATES = 400;
  const debates = simulate(DEBATES, 2026);
  const report = computeJudgesReport(debates, computedAt);
  const judge = async (judgeId: string) => {
    const row = (await report).judges.find((record) => record.judgeId === judgeId);
    if (!row) throw new Error(`no record for ${judgeId}`);
    return row;
  };

  it('catches the judge that favours the side it reads first, by about its bias', async () => {
    const first = await judge('first');
    expect(holds(first.firstShownMargin, FIRST_SHOWN_BIAS)).toBe(true);
    expect(first.firstShownMargin.low).toBeGreaterThan(0);
    expect(first.firstShownMargin.count).toBe(DEBATES);
    // It names another winner when the sides swap far more often than the fair judge.
    const fair = await judge('fair');
    expect(first.positionConsistency.high).toBeLessThan(fair.positionConsistency.low ?? 0);
  });

  it('catches the judge that favours the longer side, by about its slope', async () => {
    const longer = await judge('longer');
    expect(holds(longer.lengthSlope, LENGTH_BIAS)).toBe(true);
    expect(longer.lengthSlope.low).toBeGreaterThan(0);
    // It always names a winner, so every verdict counts.
    expect(longer.lengthSlope.count).toBe(DEBATES);
  });

  it('catches the judge that favours its own model, by about its bias', async () => {
    const m1 = await judge('m1');
    expect(holds(m1.selfPreference, SELF_BIAS)).toBe(true);
    expect(m1.selfPreference.low).toBeGreaterThan(0);
    const spoke = debates.filter((d) => d.firstModelId === 'm1' || d.secondModelId === 'm1');
    expect(m1.selfPreference.count).toBe(spoke.length);
  });

  it('finds none of these biases in the fair judges', async () => {
    for (const id of ['fair', 'm2']) {
      const fair = await judge(id);
      expect(holds(fair.firstShownMargin, 0)).toBe(true);
      expect(holds(fair.lengthSlope, 0)).toBe(true);
    }
    expect(holds((await judge('m2')).selfPreference, 0)).toBe(true);
    // A judge that is no model of the debates has no self-preference to measure.
    expect((await judge('fair')).selfPreference).toEqual(empty());
    // The length-biased judge reads both orders alike: no first-shown margin.
    expect(holds((await judge('longer')).firstShownMargin, 0)).toBe(true);
  });

  it('measures how often a judge sides with the readers, and Cohen’s κ beyond chance', async () => {
    const fair = await judge('fair');
    expect(fair.readersMinds.agreement.low).toBeGreaterThan(0.5);
    expect(fair.readersMinds.agreement.count).toBe(DEBATES);
    expect(fair.readersMinds.kappa.low).toBeGreaterThan(0);
    // The votes here are at random: no agreement beyond chance.
    expect(holds(fair.readersVotes.kappa, 0)).toBe(true);
  });

  it('measures the judges’ agreement with each other over every pair', async () => {
    const { judges, all } = await report;
    // Five judges on every debate: each is in four pairs per debate, ten pairs in all.
    for (const row of judges) {
      expect(row.pairwiseAgreement.count).toBe(4 * DEBATES);
      expect(row.fleissKappa.count).toBe(DEBATES);
    }
    expect(all.pairwiseAgreement.count).toBe(10 * DEBATES);
    expect(all.fleissKappa.count).toBe(DEBATES);
    // They all follow quality (or length) to some degree: agreement beyond chance.
    expect(all.fleissKappa.low).toBeGreaterThan(0);
    expect(all.positionConsistency.count).toBe(5 * DEBATES);
    // All judges' self-preference pools m1's and m2's observations.
    expect(all.selfPreference.count).toBe(
      (await judge('m1')).selfPreference.count + (await judge('m2')).selfPreference.count,
    );
  });

  it('is a valid report, the same every time, judges in order', async () => {
    const computed = await report;
    expect(JudgesReport.parse(computed)).toEqual(computed);
    expect(computed).toMatchObject({
      debates: DEBATES,
      bootstrapRounds: 500,
      computedAt: computedAt.toISOString(),
      computeMs: null,
      all: { judgeId: null, label: ALL_JUDGES_LABEL, kind: null, debates: DEBATES },
    });
    // Equal debates: by label.
    expect(computed.judges.map((row) => row.label)).toEqual([
      'Judge fair',
      'Judge first',
      'Judge longer',
      'Judge m1',
      'Judge m2',
    ]);
    expect(await computeJudgesReport(debates, computedAt)).toEqual(computed);
  });
});

describe('the judges’ record of a few debates', () => {
  it('is empty without debates', async () => {
    const report = await computeJudgesReport([], computedAt, { rounds: 50 });
    expect(report).toEqual({
      judges: [],
      all: {
        judgeId: null,
        label: ALL_JUDGES_LABEL,
        kind: null,
        debates: 0,
        positionConsistency: empty(),
        firstShownMargin: empty(),
        pairwiseAgreement: empty(),
        fleissKappa: empty(),
        selfPreference: empty(),
        lengthSlope: empty(),
        readersMinds: { agreement: empty(), kappa: empty() },
        readersVotes: { agreement: empty(), kappa: empty() },
      },
      debates: 0,
      bootstrapRounds: 50,
      computedAt: computedAt.toISOString(),
      computeMs: null,
    });
    expect(JudgesReport.parse(report)).toEqual(report);
  });

  it('has no agreement between judges, nor self-preference, when each debate had one judge', async () => {
    const report = await computeJudgesReport(
      [
        debate('a', [verdict('m1', [50, 40], [52, 40])], {
          firstModelId: 'm1',
          secondModelId: 'm2',
        }),
        debate('b', [verdict('m1', [40, 50], [44, 50])], {
          firstModelId: 'm2',
          secondModelId: 'm1',
        }),
      ],
      computedAt,
      { rounds: 50 },
    );
    const [m1] = report.judges;
    expect(m1?.pairwiseAgreement).toEqual(empty());
    expect(m1?.fleissKappa).toEqual(empty());
    expect(m1?.selfPreference).toEqual(empty());
    expect(report.all.pairwiseAgreement).toEqual(empty());
    // Its margins for the side read first: (10 + (40 − 52)) / 2 = −1 and (−10 + (50 − 44)) / 2 = −2.
    expect(m1?.firstShownMargin).toMatchObject({ value: -1.5, count: 2 });
    // Too few decisive verdicts to fit a slope.
    expect(m1?.lengthSlope).toEqual(empty(2));
  });

  it('counts ties: as consistent when both readings call it even, as agreeing when both judges tie', async () => {
    const report = await computeJudgesReport(
      [
        debate('even', [
          verdict('a', [45, 45], [45, 45], 'Old label'),
          verdict('b', [45, 45], [45, 45]),
        ]),
        debate('torn', [
          verdict('a', [50, 40], [40, 50], 'Judge A'),
          verdict('b', [50, 40], [50, 40]),
          verdict('c', [50, 40], [50, 40]),
        ]),
      ],
      computedAt,
      { rounds: 50 },
    );
    const [first, second, third] = report.judges;
    // The latest verdict's label; most debates first, then by label.
    expect([first?.label, second?.label, third?.label]).toEqual(['Judge A', 'Judge b', 'Judge c']);
    // 'a': consistent when it called it even twice, not when its readings disagreed.
    expect(first?.positionConsistency).toMatchObject({ value: 0.5, count: 2 });
    expect(first?.positionConsistency.low).toBeGreaterThan(0);
    // Pairs: (a, b) on 'even' agree (both a tie); on 'torn' a's tie agrees with neither; b and c
    // agree.
    expect(first?.pairwiseAgreement).toMatchObject({ value: 1 / 3, count: 3 });
    expect(report.all.pairwiseAgreement).toMatchObject({ value: 0.5, count: 4 });
    // Ties are not decisive: 'a' has no decisive verdict, 'b' one.
    expect(first?.lengthSlope.count).toBe(0);
    expect(second?.lengthSlope.count).toBe(1);
    expect(report.all.debates).toBe(2);
    expect(report.all.fleissKappa.count).toBe(2);
    expect(third?.fleissKappa.count).toBe(1);
  });

  it('reads the judge’s winner as For or Against by the side that argued For', async () => {
    const secondWins = (judgeId: string) => verdict(judgeId, [40, 50], [40, 50]);
    const report = await computeJudgesReport(
      [
        // Second Speaker argued For and won: the judge's side is For, as the readers'.
        debate('a', [secondWins('j')], {
          forSide: 'Second Speaker',
          readersMinds: 'FOR',
          readersVotes: 'AGAINST',
        }),
        // First Speaker argued For: Second's win is Against, as the readers' minds.
        debate('b', [secondWins('j')], {
          forSide: 'First Speaker',
          readersMinds: 'AGAINST',
          readersVotes: 'TIE',
        }),
        // Equal stances, or no readers' side: not counted.
        debate('c', [secondWins('j')], { forSide: null, readersMinds: 'FOR', readersVotes: 'FOR' }),
        debate('d', [secondWins('j')], {
          forSide: 'First Speaker',
          readersMinds: null,
          readersVotes: null,
        }),
      ],
      computedAt,
      { rounds: 50 },
    );
    const [j] = report.judges;
    expect(j?.readersMinds.agreement).toMatchObject({ value: 1, count: 2 });
    expect(j?.readersVotes.agreement).toMatchObject({ value: 0, count: 2 });
  });
});
