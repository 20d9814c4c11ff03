import {
  MINDS_CHANGED_MIN_READERS,
  type MindsChanged,
  type RoomWinner,
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
 * The matrix's totals: how many readers stood at each stance before (a row), how many voted each
 * way after (a column), and the readers who gave both.
 */
function tally(matrix: MindsMatrix | undefined) {
  const cell = (before: StanceBefore, after: StanceAfter) => matrix?.[before]?.[after] ?? 0;
  const row = (before: StanceBefore) =>
    StanceAfter.options.reduce((sum, after) => sum + cell(before, after), 0);
  const column = (after: StanceAfter) =>
    StanceBefore.options.reduce((sum, before) => sum + cell(before, after), 0);
  const readers = StanceBefore.options.reduce((sum, before) => sum + row(before), 0);
  return { row, column, readers };
}

/**
 * Minds changed (Intelligence Squared's rule): among the readers who gave both, the shares before
 * and after, each side's gain in percentage points, and the room's winner by gain, not by the
 * most votes at the end. Only the reader count below MINDS_CHANGED_MIN_READERS readers.
 */
export function mindsChangedOf(matrix: MindsMatrix | undefined): MindsChanged {
  const { row, column, readers } = tally(matrix);
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
      gainedReaders: { for: gainFor, against: gainAgainst },
      winner: gainFor > gainAgainst ? 'FOR' : gainAgainst > gainFor ? 'AGAINST' : 'TIE',
    },
  };
}

/**
 * Marx and Cummings' normalized change ("Normalized change", Am. J. Phys. 75, 87 (2007)) of a
 * share from `pre` to `post`, out of `whole` (100 for percent): the gain as a part of the room
 * it had to grow, (post − pre) / (whole − pre), or the loss as a part of what it had,
 * (post − pre) / pre; 0 when unchanged. From −1 to 1, so a side that started behind is not
 * rewarded merely for having more room to gain.
 */
export function normalizedChange(pre: number, post: number, whole = 100): number {
  if (post > pre) return (post - pre) / (whole - pre);
  if (post < pre) return (post - pre) / pre;
  return 0;
}

/**
 * The room's winner by gain relative to where it started: each side's normalized change from
 * its share before reading (For's among the readers who gave both, undecided included) to its
 * share after; the larger wins, equal is a tie. Null below MINDS_CHANGED_MIN_READERS readers,
 * as mindsChangedOf. From the counts (a share's percent cancels out of the ratio), so that equal
 * changes are exactly a tie.
 */
export function relativeWinnerOf(matrix: MindsMatrix | undefined): RoomWinner | null {
  const { row, column, readers } = tally(matrix);
  if (readers < MINDS_CHANGED_MIN_READERS) return null;
  const changeFor = normalizedChange(row('FOR'), column('FOR'), readers);
  const changeAgainst = normalizedChange(row('AGAINST'), column('AGAINST'), readers);
  return changeFor > changeAgainst ? 'FOR' : changeAgainst > changeFor ? 'AGAINST' : 'TIE';
}
