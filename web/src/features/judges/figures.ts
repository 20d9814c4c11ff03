import { LENGTH_SLOPE_MIN_VERDICTS } from '@debate/contracts/constants';
import type { JudgeFigure, JudgeRecord } from './judges.api';

/**
 * What the Judges tab says of each figure of a judge's record: its column, how its value and
 * interval read, what it counts, why it is missing, and what it means. One definition per
 * figure, in the table's order.
 */

/** How a figure's value and its interval's ends read. */
type Format = 'share' | 'kappa' | 'points' | 'slope';

/** Which observations a figure's count is of, for a judge's row and for all judges'. */
type Unit = 'verdicts' | 'pairs' | 'panels' | 'decisive';

export interface FigureColumn {
  readonly key: string;
  /** The column's heading. */
  readonly heading: string;
  readonly pick: (record: JudgeRecord) => JudgeFigure;
  readonly format: Format;
  readonly unit: Unit;
  /** Why there is no value with too few observations ('no readers yet'). */
  readonly none: string;
  /** The fewest observations it is computed from (1 unless told). */
  readonly minCount?: number;
  /** Why there is no value although there are observations. */
  readonly undefinedWhy: string;
  /** What the figure means, in a sentence (the legend under the table). */
  readonly meaning: string;
}

const KAPPA_UNDEFINED = 'κ undefined: every answer was the same';

export const FIGURE_COLUMNS: readonly FigureColumn[] = [
  {
    key: 'positionConsistency',
    heading: 'Position consistency',
    pick: (record) => record.positionConsistency,
    format: 'share',
    unit: 'verdicts',
    none: 'no debate judged',
    undefinedWhy: 'no debate judged',
    meaning:
      'How often the two readings of a debate, the second with the speakers swapped, named the same winner.',
  },
  {
    key: 'firstShownMargin',
    heading: 'First-read advantage',
    pick: (record) => record.firstShownMargin,
    format: 'points',
    unit: 'verdicts',
    none: 'no debate judged',
    undefinedWhy: 'no debate judged',
    meaning:
      'How many points (of 80) more the judge gave the side it read first than the other; 0 is fair.',
  },
  {
    key: 'pairwiseAgreement',
    heading: 'Agreement between judges',
    pick: (record) => record.pairwiseAgreement,
    format: 'share',
    unit: 'pairs',
    none: 'no debate read by several judges',
    undefinedWhy: 'no debate read by several judges',
    meaning:
      'On the debates several judges read: how often two of them named the same winner (or both a tie).',
  },
  {
    key: 'fleissKappa',
    heading: 'Fleiss’ κ',
    pick: (record) => record.fleissKappa,
    format: 'kappa',
    unit: 'panels',
    none: 'no debate read by several judges',
    undefinedWhy: KAPPA_UNDEFINED,
    meaning:
      'The same agreement beyond what chance gives: 1 is full agreement, 0 no better than chance.',
  },
  {
    key: 'selfPreference',
    heading: 'Self-preference',
    pick: (record) => record.selfPreference,
    format: 'points',
    unit: 'verdicts',
    none: 'no debate its model spoke in',
    undefinedWhy: 'no debate its model spoke in',
    meaning:
      'On debates the judge’s own model spoke in: how many points more it gave its model’s side than the judges with no model in the debate did.',
  },
  {
    key: 'lengthSlope',
    heading: 'Length bias',
    pick: (record) => record.lengthSlope,
    format: 'slope',
    unit: 'decisive',
    none: `fewer than ${LENGTH_SLOPE_MIN_VERDICTS} decisive verdicts`,
    minCount: LENGTH_SLOPE_MIN_VERDICTS,
    undefinedWhy: 'no fit: the lengths never vary, or they alone decide every verdict',
    meaning:
      'How much the odds of winning (log-odds, a logistic fit) rise per 100 words a speaker wrote more than the other; 0 is no bias.',
  },
  {
    key: 'readersMinds',
    heading: 'Readers: minds changed',
    pick: (record) => record.readersMinds.agreement,
    format: 'share',
    unit: 'verdicts',
    none: 'no readers yet',
    undefinedWhy: 'no readers yet',
    meaning:
      'How often the judge’s winner (For, Against or a tie) is the side the readers moved toward.',
  },
  {
    key: 'readersMindsKappa',
    heading: 'Minds changed: Cohen’s κ',
    pick: (record) => record.readersMinds.kappa,
    format: 'kappa',
    unit: 'verdicts',
    none: 'no readers yet',
    undefinedWhy: KAPPA_UNDEFINED,
    meaning: 'That agreement beyond what chance gives.',
  },
  {
    key: 'readersVotes',
    heading: 'Readers: votes',
    pick: (record) => record.readersVotes.agreement,
    format: 'share',
    unit: 'verdicts',
    none: 'no readers yet',
    undefinedWhy: 'no readers yet',
    meaning: 'How often the judge’s winner is the side the readers’ For and Against votes favour.',
  },
  {
    key: 'readersVotesKappa',
    heading: 'Votes: Cohen’s κ',
    pick: (record) => record.readersVotes.kappa,
    format: 'kappa',
    unit: 'verdicts',
    none: 'no readers yet',
    undefinedWhy: KAPPA_UNDEFINED,
    meaning: 'That agreement beyond what chance gives.',
  },
];

/** '+1.8', '-0.4', '0': a margin's sign always shown. */
function signed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return value > 0 ? `+${text}` : text;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** A value as its figure reads: '82%', '0.41' (κ), '+1.8 pts', '+0.42 per 100 words'. */
function formatValue(format: Format, value: number): string {
  switch (format) {
    case 'share':
      return percent(value);
    case 'kappa':
      return value.toFixed(2);
    case 'points':
      return `${signed(value, 1)} pts`;
    case 'slope':
      return `${signed(value, 2)} per 100 words`;
  }
}

/** An end of an interval as its figure reads: '74%', '0.12', '0.9'. */
function formatEnd(format: Format, value: number): string {
  switch (format) {
    case 'share':
      return percent(value);
    case 'kappa':
    case 'slope':
      return value.toFixed(2);
    case 'points':
      return value.toFixed(1);
  }
}

/** The 95% interval: '[74%, 88%]'; null when there is none. */
function formatInterval(format: Format, figure: JudgeFigure): string | null {
  if (figure.low === null || figure.high === null) return null;
  return `[${formatEnd(format, figure.low)}, ${formatEnd(format, figure.high)}]`;
}

/** What a count is of: '120 debates', '1 pair of judges', '9 decisive verdicts'. */
function formatCount(unit: Unit, count: number, allJudges: boolean): string {
  const one = count === 1;
  switch (unit) {
    // A judge reads a debate once: its verdicts are its debates. All judges' are every verdict.
    case 'verdicts':
      return allJudges
        ? `${count} ${one ? 'verdict' : 'verdicts'}`
        : `${count} ${one ? 'debate' : 'debates'}`;
    case 'pairs':
      return `${count} ${one ? 'pair' : 'pairs'} of judges`;
    case 'panels':
      return `${count} ${one ? 'debate' : 'debates'}`;
    case 'decisive':
      return `${count} decisive ${one ? 'verdict' : 'verdicts'}`;
  }
}

/** A figure's cell, as its parts: the value, the interval, the count, or why there is no value. */
export interface FigureCell {
  readonly value: string | null;
  readonly interval: string | null;
  readonly count: string;
  /** Why there is no value; null when there is one. */
  readonly missing: string | null;
}

export function figureCell(column: FigureColumn, record: JudgeRecord): FigureCell {
  const figure = column.pick(record);
  const allJudges = record.judgeId === null;
  const count = formatCount(column.unit, figure.count, allJudges);
  if (figure.value === null) {
    const why = figure.count < (column.minCount ?? 1) ? column.none : column.undefinedWhy;
    // All judges' row: no judge's own model, but any judge's.
    const missing =
      allJudges && column.key === 'selfPreference' ? 'no debate a judge’s model spoke in' : why;
    return { value: null, interval: null, count, missing };
  }
  return {
    value: formatValue(column.format, figure.value),
    interval: formatInterval(column.format, figure),
    count,
    missing: null,
  };
}
