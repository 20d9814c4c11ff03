import { describe, expect, it } from '@jest/globals';
import { RateLimiter } from './rate-limiter.js';

describe(RateLimiter.name, () => {
  it('allows `limit` events per window and key, then again once the oldest leaves it', () => {
    let now = 0;
    const sut = new RateLimiter(2, 60_000, () => now);
    sut.record('ada');
    now = 10_000;
    sut.record('ada');
    expect(sut.allows('ada')).toBe(false);
    expect(sut.allows('bo')).toBe(true);
    now = 60_001;
    expect(sut.allows('ada')).toBe(true);
  });
});
