import { describe, expect, it } from '@jest/globals';
import { mindsChangedOf, normalizedChange, relativeWinnerOf } from './minds-changed.js';

describe(normalizedChange.name, () => {
  it('is a gain as a part of the room to grow, and a loss as a part of what there was', () => {
    // The two cases: 20% → 40% is a quarter of the 80 points left; 50% → 40% loses a fifth of
    // the 50 there were.
    expect(normalizedChange(20, 40)).toBeCloseTo(0.25, 12);
    expect(normalizedChange(50, 40)).toBeCloseTo(-0.2, 12);
    expect(normalizedChange(30, 30)).toBe(0);
    // At the edges: from nothing, from everything, and out of another whole (counts).
    expect(normalizedChange(0, 10)).toBeCloseTo(0.1, 12);
    expect(normalizedChange(100, 90)).toBeCloseTo(-0.1, 12);
    expect(normalizedChange(0, 0)).toBe(0);
    expect(normalizedChange(100, 100)).toBe(0);
    expect(normalizedChange(2, 5, 10)).toBeCloseTo(3 / 8, 12);
  });
});

describe(relativeWinnerOf.name, () => {
  it('names the side that gained more of its room, not merely the more points', () => {
    // 100 readers: For 10, Against 70, 20 undecided, who go 14 For and 6 Against. For gained 14
    // points, Against 6; but For had 90 points of room (14/90 ≈ 0.16) and Against 30 (0.2).
    const matrix = {
      FOR: { FOR: 10 },
      AGAINST: { AGAINST: 70 },
      UNDECIDED: { FOR: 14, AGAINST: 6 },
    };
    expect(mindsChangedOf(matrix).shares?.winner).toBe('FOR');
    expect(relativeWinnerOf(matrix)).toBe('AGAINST');
  });

  it('calls equal changes a tie, a side that lost the loser, and too few readers nothing', () => {
    // 2 and 2 of 10 before, 5 and 5 after: 3/8 each.
    expect(
      relativeWinnerOf({
        FOR: { FOR: 2 },
        AGAINST: { AGAINST: 2 },
        UNDECIDED: { FOR: 3, AGAINST: 3 },
      }),
    ).toBe('TIE');
    // For 5 → 4 of 10 (−0.2), Against 4 → 6 (+1/3).
    expect(
      relativeWinnerOf({
        FOR: { FOR: 4, AGAINST: 1 },
        AGAINST: { AGAINST: 4 },
        UNDECIDED: { AGAINST: 1 },
      }),
    ).toBe('AGAINST');
    expect(relativeWinnerOf({ FOR: { AGAINST: 4 } })).toBeNull();
    expect(relativeWinnerOf(undefined)).toBeNull();
  });
});
