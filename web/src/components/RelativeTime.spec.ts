import { describe, expect, it } from '@jest/globals';
import { relativeTime } from './RelativeTime';

describe(relativeTime.name, () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it('says how long ago, in the largest step that fits', () => {
    expect(relativeTime(ago(10), now, 'en')).toBe('now');
    expect(relativeTime(ago(5 * 60), now, 'en')).toBe('5 minutes ago');
    expect(relativeTime(ago(3 * 3600), now, 'en')).toBe('3 hours ago');
    expect(relativeTime(ago(26 * 3600), now, 'en')).toBe('yesterday');
    expect(relativeTime(ago(15 * 24 * 3600), now, 'en')).toBe('2 weeks ago');
    expect(relativeTime(ago(400 * 24 * 3600), now, 'en')).toBe('last year');
  });
});
