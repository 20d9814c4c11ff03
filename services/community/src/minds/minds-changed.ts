import {
  MINDS_CHANGED_MIN_READERS,
  type MindsChanged,
  StanceAfter,
  StanceBefore,
} from '@debate/contracts';

/**
 * How many readers went from each stance before reading to each vote after, as a public debate
 * keeps it (`minds.FOR.AGAINST`: For before, Against after). Each answer moves one cell in the
 * same write that records it, so the cells always add up to the readers who gave both.
 */
export type MindsMatrix = Partial<Record<StanceBefore, Partial<Record<StanceAfter, number>>>>;

/** A share in percent, one decimal. */
const percent = (count: number, of: number) => Math.round((1000 * count) / of) / 10;

/**
 * Minds changed (Intelligence Squared's rule): among the readers who gave both, the shares before
 * and after, each side's gain in percentage points, and the room's winner by gain, not by the
 * most votes at the end. Only the reader count below MINDS_CHANGED_MIN_READERS readers.
 */
export function mindsChangedOf(matrix: MindsMatrix | undefined): MindsChanged {
  const cell = (before: StanceBefore, after: StanceAfter) => matrix?.[before]?.[after] ?? 0;
  const row = (before: StanceBefore) =>
    StanceAfter.options.reduce((sum, after) => sum + cell(before, after), 0);
  const column = (after: StanceAfter) =>
    StanceBefore.options.reduce((sum, before) => sum + cell(before, after), 0);
  const readers = StanceBefore.options.reduce((sum, before) => sum + row(before), 0);
  if (readers < MINDS_CHANGED_MIN_READERS) return { readers, shares: null };
  // Gains from the counts, not from the rounded shares, so that equal gains are a tie.
  const gainFor = column('FOR') - row('FOR');
  const gainAgainst = column('AGAINST') - row('AGAINST');
  return {
    readers,
    shares: {
      before: {
        for: percent(row('FOR'), readers),
        against: percent(row('AGAINST'), readers),
        undecided: percent(row('UNDECIDED'), readers),
      },
      after: { for: percent(column('FOR'), readers), against: percent(column('AGAINST'), readers) },
      gain: { for: percent(gainFor, readers), against: percent(gainAgainst, readers) },
      winner: gainFor > gainAgainst ? 'FOR' : gainAgainst > gainFor ? 'AGAINST' : 'TIE',
    },
  };
}
