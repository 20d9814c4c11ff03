import {
  criterionLabels,
  criterionWeights,
  forSpeakerOf,
  judgeCriteria,
} from '@debate/contracts/constants';
import type { DebateVerdictFieldsFragment, VerdictSummaryFieldsFragment } from '../../gql/graphql';
import type { SideStances } from './sides';

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

/**
 * Whether the two readings, the second with the speakers swapped, named the same winner: said
 * when they agreed. When they disagreed the verdict is a tie whose headline already says so
 * (tieText), and nothing more is said; null too for a verdict without both readings.
 */
export function readingsAgreementText(verdict: Pick<Verdict, 'readings'>): string | null {
  const [first, second] = verdict.readings;
  if (!first || !second || first.winner !== second.winner) return null;
  return 'The two readings, sides swapped, agreed.';
}

/** A side of the motion, or neither: a tie of the judges, or readers who moved to no side. */
type MotionSide = 'FOR' | 'AGAINST' | 'TIE';

/** Each side's gain in readers, after less before (minds changed). */
export interface GainedReaders {
  readonly for: number;
  readonly against: number;
}

/** The side the readers moved toward: the one that gained more readers; TIE when even. */
function readersSide(gained: GainedReaders): MotionSide {
  if (gained.for > gained.against) return 'FOR';
  if (gained.against > gained.for) return 'AGAINST';
  return 'TIE';
}

/** The readers' verdict: 'The readers: For gained 4 minds', 'The readers: no side gained'. */
export function readersVerdictText(gained: GainedReaders): string {
  const side = readersSide(gained);
  if (side === 'TIE') return 'The readers: no side gained';
  const minds = side === 'FOR' ? gained.for : gained.against;
  return `The readers: ${side === 'FOR' ? 'For' : 'Against'} gained ${minds} ${minds === 1 ? 'mind' : 'minds'}`;
}

/**
 * The side of the motion the judges' winner argued, For being the speaker with the higher
 * stance (as the community service counts it); TIE for a tie; null when the stances are equal,
 * so that the winner argued neither side.
 */
function judgesSide(
  verdict: Pick<Verdict, 'winner' | 'tie'>,
  stances: SideStances,
): MotionSide | null {
  if (verdict.tie || verdict.winner === null) return 'TIE';
  const forSpeaker = forSpeakerOf(stances.first, stances.second);
  if (forSpeaker === null) return null;
  return verdict.winner === forSpeaker ? 'FOR' : 'AGAINST';
}

/** The judges' verdict as the readers' is said: 'The judges: For won (First Speaker)'. */
export function judgesVerdictText(
  verdict: Pick<Verdict, 'winner' | 'tie'>,
  stances: SideStances,
): string {
  const side = judgesSide(verdict, stances);
  if (side === 'TIE') return 'The judges: a tie';
  if (side === null) return `The judges: ${verdict.winner} won`;
  return `The judges: ${side === 'FOR' ? 'For' : 'Against'} won (${verdict.winner})`;
}

/**
 * Whether the judges and the readers disagree: the readers moved toward another side than the
 * judges' winner argued (a tie counting as no side). Never when the winner argued neither side.
 */
export function judgesAndReadersDisagree(
  verdict: Pick<Verdict, 'winner' | 'tie'>,
  stances: SideStances,
  gained: GainedReaders,
): boolean {
  const judges = judgesSide(verdict, stances);
  return judges !== null && judges !== readersSide(gained);
}
