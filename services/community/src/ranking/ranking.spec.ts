import { describe, expect, it } from '@jest/globals';
import {
  controversy,
  decodeRankCursor,
  encodeRankCursor,
  oneMonthBefore,
  periodStart,
  wilsonLowerBound,
} from './ranking.js';

// Expected values worked out by hand from the formulas (z = 1.96), to 4 decimals.
describe(wilsonLowerBound.name, () => {
  it.each([
    [0, 0, 0],
    [1, 0, 0.2065], // (1 + 1.9208 - 1.96 * 0.98) / 4.8416 = 1 / 4.8416
    [2, 0, 0.3424], // (1.9604 - 1.96 * 0.49) / 2.9208 = 1 / 2.9208
    [1, 1, 0.0945],
    [40, 10, 0.6696], // (0.8 + 0.038416 - 1.96 * 0.059868) / 1.076832
  ])('for %d For and %d Against is %d', (upvotes, downvotes, expected) => {
    expect(wilsonLowerBound(upvotes, downvotes)).toBeCloseTo(expected, 4);
  });

  it('ranks a surer share above a higher but thinner one', () => {
    expect(wilsonLowerBound(40, 10)).toBeGreaterThan(wilsonLowerBound(2, 0));
    expect(wilsonLowerBound(0, 5)).toBe(0);
  });
});

describe(controversy.name, () => {
  it.each([
    [0, 0, 0],
    [3, 0, 0], // one side only: not controversial at all
    [0, 3, 0],
    [5, 5, 10], // 10 ^ 1
    [10, 5, 3.873], // 15 ^ 0.5
    [1, 4, 1.4953], // 5 ^ 0.25
  ])('for %d For and %d Against is %d', (upvotes, downvotes, expected) => {
    expect(controversy(upvotes, downvotes)).toBeCloseTo(expected, 3);
  });

  it('ranks many evenly split votes above few, and above a lopsided many', () => {
    expect(controversy(50, 50)).toBeGreaterThan(controversy(5, 5));
    expect(controversy(5, 5)).toBeGreaterThan(controversy(90, 10));
  });
});

describe(periodStart.name, () => {
  it('starts today at the midnight of the viewer, east or west of UTC', () => {
    expect(periodStart('today', new Date('2026-11-23T23:30:00Z'), 120)?.toISOString()).toBe(
      '2026-11-23T22:00:00.000Z', // already the 24th in UTC+2
    );
    expect(periodStart('today', new Date('2026-11-23T03:00:00Z'), -300)?.toISOString()).toBe(
      '2026-11-22T05:00:00.000Z', // still the 22nd in UTC-5
    );
    expect(periodStart('today', new Date('2026-11-23T12:00:00Z'), 0)?.toISOString()).toBe(
      '2026-11-23T00:00:00.000Z',
    );
  });

  it('goes back 7 days for the week, one calendar month for the month, not at all for all time', () => {
    const now = new Date('2026-03-15T10:00:00Z');
    expect(periodStart('week', now, 0)?.toISOString()).toBe('2026-03-08T10:00:00.000Z');
    expect(periodStart('month', now, 0)?.toISOString()).toBe('2026-02-15T10:00:00.000Z');
    expect(periodStart('all', now, 0)).toBeUndefined();
  });
});

describe(oneMonthBefore.name, () => {
  it.each([
    ['2026-03-15T10:00:00.000Z', '2026-02-15T10:00:00.000Z'],
    ['2026-03-31T10:00:00.000Z', '2026-02-28T10:00:00.000Z'], // not 3 March: 31 February clamps
    ['2028-03-31T10:00:00.000Z', '2028-02-29T10:00:00.000Z'], // a leap year
    ['2026-05-31T23:59:59.999Z', '2026-04-30T23:59:59.999Z'],
    ['2028-02-29T00:00:00.000Z', '2028-01-29T00:00:00.000Z'],
    ['2027-01-31T06:30:00.000Z', '2026-12-31T06:30:00.000Z'], // across the year
    ['2026-12-31T10:00:00.000Z', '2026-11-30T10:00:00.000Z'],
  ])('from %s is %s, the same time of day', (now, expected) => {
    expect(oneMonthBefore(new Date(now)).toISOString()).toBe(expected);
  });

  it('is where This Month starts, on the 31st too', () => {
    expect(periodStart('month', new Date('2026-03-31T10:00:00Z'), 120)?.toISOString()).toBe(
      '2026-02-28T10:00:00.000Z',
    );
  });
});

describe('rank cursors', () => {
  const sharedAt = new Date('2026-11-20T10:00:00Z');

  it('round-trip the last card of a page', () => {
    const cursor = { sort: 'popular' as const, score: 0.2065432914738, sharedAt, id: 'd1' };
    expect(decodeRankCursor(encodeRankCursor(cursor), 'popular')).toEqual(cursor);
  });

  it('refuse a cursor of another sort, or one that is not a cursor', () => {
    const recent = encodeRankCursor({ sort: 'recent', score: null, sharedAt, id: 'd1' });
    expect(decodeRankCursor(recent, 'popular')).toBeUndefined();
    expect(decodeRankCursor('not a cursor', 'recent')).toBeUndefined();
    expect(decodeRankCursor(Buffer.from('[1,2,3,4]').toString('base64url'), 'recent')).toBe(
      undefined,
    );
  });
});
