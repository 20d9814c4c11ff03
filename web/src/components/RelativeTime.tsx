import { useState } from 'react';

/** The steps a relative time is said in, each with its length in seconds. */
const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/**
 * `iso` relative to `now`, in the browser's language: 'just now', '5 minutes ago', 'yesterday',
 * '3 weeks ago'.
 */
export function relativeTime(iso: string, now: number, locale?: string): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, length] of UNITS) {
    if (Math.abs(seconds) >= length) return format.format(Math.round(seconds / length), unit);
  }
  return Math.abs(seconds) < 45 ? format.format(0, 'second') : format.format(-1, 'minute');
}

/** The exact time, as the hover shows it: 'Nov 24, 2026, 4:58 PM'. */
function exactTime(iso: string, locale?: string): string {
  return new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A time said relatively ('3 days ago'), the exact time on hover and for machines. */
export function RelativeTime({ iso }: { iso: string }) {
  // The moment the time was first shown: it stays put while the page is open.
  const [now] = useState(Date.now);
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {relativeTime(iso, now)}
    </time>
  );
}
