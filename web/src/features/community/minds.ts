import { MINDS_CHANGED_MIN_READERS } from '@debate/contracts/constants';
import type { MindsChangedFieldsFragment } from '../../gql/graphql';

/**
 * What the app says of minds changed (Intelligence Squared's rule): among the readers who said
 * where they stood before reading and voted For or Against after, the shares before → after,
 * each side's gain in percentage points, and the room's winner by gain.
 */
export type MindsChanged = MindsChangedFieldsFragment;

/** A gain in points, signed: '+20', '-5.5', '0'. */
export function signedPoints(points: number): string {
  return points > 0 ? `+${points}` : String(points);
}

/** The room's verdict: 'Against wins the room by gain', 'The room is split evenly'. */
export function roomWinnerText(winner: string): string {
  if (winner === 'FOR') return 'For wins the room by gain';
  if (winner === 'AGAINST') return 'Against wins the room by gain';
  return 'The room is split evenly: both sides gained the same';
}

/** Below the threshold: how many readers have given both, of how many needed. */
export function readersSoFarText(readers: number): string {
  const who = readers === 1 ? 'reader has' : 'readers have';
  return `${readers} ${who} said where they stood before and after reading; shown from ${MINDS_CHANGED_MIN_READERS}.`;
}

/**
 * A card's line: 'Minds changed: For 40% → 40% (0) · Against 40% → 60% (+20) · Against wins the
 * room by gain', or, below the threshold, how many readers so far.
 */
export function mindsChangedLine(minds: MindsChanged): string {
  const { shares } = minds;
  if (!shares) return `Minds changed: ${readersSoFarText(minds.readers)}`;
  const side = (label: string, before: number, after: number, gain: number) =>
    `${label} ${before}% → ${after}% (${signedPoints(gain)})`;
  return [
    `Minds changed: ${side('For', shares.before.for, shares.after.for, shares.gain.for)}`,
    side('Against', shares.before.against, shares.after.against, shares.gain.against),
    roomWinnerText(shares.winner),
  ].join(' · ');
}
