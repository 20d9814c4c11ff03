import { describe, expect, it } from '@jest/globals';
import { SubscriptionLimits } from './subscription-limits.js';

const codeOf = (work: () => unknown): unknown => {
  try {
    work();
    return 'granted';
  } catch (error) {
    return (error as { extensions?: Record<string, unknown> }).extensions;
  }
};

describe(SubscriptionLimits.name, () => {
  it('counts per connection, and gives the place back when a subscription ends', () => {
    const limits = new SubscriptionLimits(2, 10);
    const connection = { live: 0 };
    const first = limits.acquire('ann', connection);
    limits.acquire('ann', connection);
    expect(codeOf(() => limits.acquire('ann', connection))).toEqual({
      code: 'TOO_MANY_SUBSCRIPTIONS',
      limit: 2,
      per: 'connection',
    });
    first();
    first(); // twice is once
    expect(connection.live).toBe(1);
    expect(codeOf(() => limits.acquire('ann', connection))).toBe('granted');
  });

  it('counts per account across connections, apart from other accounts', () => {
    const limits = new SubscriptionLimits(5, 3);
    const releases = [1, 2, 3].map(() => limits.acquire('ann', { live: 0 }));
    expect(codeOf(() => limits.acquire('ann', { live: 0 }))).toEqual({
      code: 'TOO_MANY_SUBSCRIPTIONS',
      limit: 3,
      per: 'account',
    });
    expect(codeOf(() => limits.acquire('bob', { live: 0 }))).toBe('granted');
    releases[0]?.();
    expect(codeOf(() => limits.acquire('ann', undefined))).toBe('granted');
  });
});
