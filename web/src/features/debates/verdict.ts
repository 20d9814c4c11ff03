import { criterionLabels, criterionWeights, judgeCriteria } from '@debate/contracts/constants';
import type { DebateVerdictFieldsFragment, VerdictSummaryFieldsFragment } from '../../gql/graphql';

/**
 * What the app says of a debate's verdict: the judges' scorecard (DebateVerdict), read twice,
 * the second time with the speakers' order and labels swapped; a tie when the two readings
 * named different winners ('readings_disagree') or both called it even ('judged_even').
 */

/** The whole scorecard, as the engine, a debate's page and the export ask for it. */
export type Verdict = DebateVerdictFieldsFragment;

/** What a card asks for: the winner and the totals. */
export type VerdictSummary = VerdictSummaryFieldsFragment;

const FIRST_SPEAKER = 'First Speaker';
const SECOND_SPEAKER = 'Second Speaker';

/** The judges' criteria, in the scorecard's order, with their labels and weights. */
const CRITERIA = judgeCriteria.map((id) => ({
  id,
  label: criterionLabels[id],
  weight: criterionWeights[id],
}));

/** A score or a total as read: '7', '7.5', '55.25' (means of two readings; no trailing zeros). */
export function formatPoints(points: number): string {
  return String(Math.round(points * 100) / 100);
}

/** Why a tie, in words. */
function tieText(tieReason: string | null): string {
  switch (tieReason) {
    case 'readings_disagree':
      return 'A tie: the two readings, one with the speakers swapped, disagreed';
    case 'judged_even':
      return 'A tie: the judge called it even';
    default:
      return 'A tie';
  }
}

/** The winner's total, then the other's. */
function winnerFirst(verdict: VerdictSummary): [number, number] {
  return verdict.winner === SECOND_SPEAKER
    ? [verdict.secondTotal, verdict.firstTotal]
    : [verdict.firstTotal, verdict.secondTotal];
}

/**
 * The scorecard's headline: 'First Speaker wins, 56 to 40', or the tie and why ('A tie: the
 * judge called it even').
 */
export function verdictHeadline(verdict: Pick<Verdict, keyof VerdictSummary | 'tieReason'>) {
  if (verdict.tie || verdict.winner === null) return tieText(verdict.tieReason);
  const [winner, other] = winnerFirst(verdict);
  return `${verdict.winner} wins, ${formatPoints(winner)} to ${formatPoints(other)}`;
}

/**
 * A card's line: 'Judges: First Speaker 56 – 40' (the winner's total first), 'Judges: a tie,
 * 48 – 48' (First Speaker's total first).
 */
export function verdictCardLine(verdict: VerdictSummary): string {
  if (verdict.tie || verdict.winner === null) {
    return `Judges: a tie, ${formatPoints(verdict.firstTotal)} – ${formatPoints(verdict.secondTotal)}`;
  }
  const [winner, other] = winnerFirst(verdict);
  return `Judges: ${verdict.winner} ${formatPoints(winner)} – ${formatPoints(other)}`;
}

/** One reading, in words: 'Read as given: First Speaker wins, 56 to 40'. */
export function readingText(reading: Verdict['readings'][number]): string {
  const how = reading.order === 'swapped' ? 'Read with the speakers swapped' : 'Read as given';
  const outcome =
    reading.winner === null
      ? `even, ${formatPoints(reading.firstTotal)} to ${formatPoints(reading.secondTotal)}`
      : verdictHeadline({ ...reading, tie: false, tieReason: null });
  return `${how}: ${outcome}`;
}

export interface ScoreCell {
  readonly score: number;
  readonly reason: string;
}

export interface ScorecardRow {
  readonly criterion: string;
  /** 'Argument strength (×3)'. */
  readonly label: string;
  readonly first: ScoreCell | null;
  readonly second: ScoreCell | null;
}

/**
 * The scorecard's rows: the four criteria in order, each with both speakers' score and reason
 * (null where the judge gave none); a criterion the app does not know comes after them, as named.
 */
export function scorecardRows(verdict: Pick<Verdict, 'scores'>): ScorecardRow[] {
  const known = new Set<string>(judgeCriteria);
  const extra = [...new Set(verdict.scores.map((score) => score.criterion))].filter(
    (criterion) => !known.has(criterion),
  );
  const cell = (criterion: string, speaker: string): ScoreCell | null => {
    const found = verdict.scores.find(
      (score) => score.criterion === criterion && score.speaker === speaker,
    );
    return found ? { score: found.score, reason: found.reason } : null;
  };
  return [
    ...CRITERIA.map(({ id, label, weight }) => ({ criterion: id, label: `${label} (×${weight})` })),
    ...extra.map((criterion) => ({ criterion, label: criterion })),
  ].map(({ criterion, label }) => ({
    criterion,
    label,
    first: cell(criterion, FIRST_SPEAKER),
    second: cell(criterion, SECOND_SPEAKER),
  }));
}
