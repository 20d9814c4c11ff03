import type { RankingPeriod, RankingSort } from '@debate/contracts';

/** The z of a 95% confidence interval: the Wilson lower bound 'Most Popular' sorts by. */
const Z = 1.96;

/**
 * The lower bound of the Wilson score interval for the share of For votes among For and
 * Against: a debate with 40 For and 10 Against outranks one with 2 For and none Against,
 * because its share is surer. 0 when nobody voted either way.
 */
export function wilsonLowerBound(upvotes: number, downvotes: number): number {
  const n = upvotes + downvotes;
  if (n === 0) return 0;
  const p = upvotes / n;
  const z2 = Z * Z;
  return (p + z2 / (2 * n) - Z * Math.sqrt((p * (1 - p) + z2 / (4 * n)) / n)) / (1 + z2 / n);
}

/**
 * Reddit's controversy: 0 unless both sides have votes, else (for + against) raised to the
 * power min/max, so many evenly split votes rank highest.
 */
export function controversy(upvotes: number, downvotes: number): number {
  if (upvotes <= 0 || downvotes <= 0) return 0;
  const balance = Math.min(upvotes, downvotes) / Math.max(upvotes, downvotes);
  return (upvotes + downvotes) ** balance;
}

/** The stored scores of a debate with these counts, as the ranking indexes read them. */
export function scoresOf(upvotes: number, downvotes: number) {
  return {
    popularity: wilsonLowerBound(upvotes, downvotes),
    controversy: controversy(upvotes, downvotes),
  };
}

/**
 * Where a period starts for a viewer `utcOffsetMinutes` east of UTC: the start of the viewer's
 * day, 7 days ago, or one calendar month ago ({@link oneMonthBefore}); undefined for All Time.
 */
export function periodStart(
  period: RankingPeriod,
  now: Date,
  utcOffsetMinutes: number,
): Date | undefined {
  switch (period) {
    case 'all':
      return undefined;
    case 'today': {
      const offsetMs = utcOffsetMinutes * 60_000;
      const local = new Date(now.getTime() + offsetMs);
      const localMidnight = Date.UTC(
        local.getUTCFullYear(),
        local.getUTCMonth(),
        local.getUTCDate(),
      );
      return new Date(localMidnight - offsetMs);
    }
    case 'week':
      return new Date(now.getTime() - 7 * 24 * 60 * 60_000);
    case 'month':
      return oneMonthBefore(now);
  }
}

/**
 * The same day and time of day of the previous calendar month (UTC), clamped to that month's
 * last day: 31 March 10:00 gives 28 February 10:00 (29 in a leap year), never 3 March, as
 * `setUTCMonth(month - 1)` would by rolling 31 February over.
 */
export function oneMonthBefore(now: Date): Date {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() - 1; // Date.UTC takes -1 as December of the year before
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const timeOfDay = now.getTime() - Date.UTC(year, now.getUTCMonth(), now.getUTCDate());
  return new Date(Date.UTC(year, month, Math.min(now.getUTCDate(), lastDay)) + timeOfDay);
}

/** The stored field each sort orders by first (then sharedAt, then id, all descending). */
export const scoreField: Record<RankingSort, 'popularity' | 'controversy' | undefined> = {
  popular: 'popularity',
  recent: undefined,
  controversial: 'controversy',
};

/** Where a page ended: the last card's sort key. */
export interface RankCursor {
  readonly sort: RankingSort;
  readonly score: number | null;
  readonly sharedAt: Date;
  readonly id: string;
}

export function encodeRankCursor(cursor: RankCursor): string {
  const body = [cursor.sort, cursor.score, cursor.sharedAt.toISOString(), cursor.id];
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The cursor of `text`, or undefined when it is not one of this sort's cursors. */
export function decodeRankCursor(text: string, sort: RankingSort): RankCursor | undefined {
  try {
    const body: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(body) || body.length !== 4) return undefined;
    const [cursorSort, score, sharedAt, id] = body as unknown[];
    const time = new Date(typeof sharedAt === 'string' ? sharedAt : NaN);
    const scored = scoreField[sort] !== undefined;
    if (
      cursorSort !== sort ||
      typeof id !== 'string' ||
      Number.isNaN(time.getTime()) ||
      (scored ? typeof score !== 'number' || !Number.isFinite(score) : score !== null)
    ) {
      return undefined;
    }
    return { sort, score: score as number | null, sharedAt: time, id };
  } catch {
    return undefined;
  }
}
