import { describe, expect, it } from '@jest/globals';
import { defaultRateLimits, RateLimitRuleText, rateLimitsSchema } from './rate-limits.js';

describe('RATE_LIMITS', () => {
  it('reads a rule as a count per period', () => {
    expect(RateLimitRuleText.parse('5/10m')).toEqual({ points: 5, seconds: 600 });
    expect(RateLimitRuleText.parse('30/s')).toEqual({ points: 30, seconds: 1 });
    expect(RateLimitRuleText.parse('2/1d')).toEqual({ points: 2, seconds: 86_400 });
  });

  it('refuses a rule it cannot read, or one beyond a day', () => {
    for (const text of ['5', '5/10', '0/1m', '5/2d', 'five/1m', '5/1w']) {
      expect(RateLimitRuleText.safeParse(text).success).toBe(false);
    }
  });

  it('lays the JSON over the defaults, and null lifts a rule', () => {
    const limits = rateLimitsSchema.parse('{"signUp":{"address":"3/1h"},"vote":{"account":null}}');
    if (limits === 'off') throw new Error('expected limits');
    const defaults = defaultRateLimits();
    expect(limits.signUp).toEqual({ ...defaults.signUp, address: { points: 3, seconds: 3_600 } });
    expect(limits.vote).toEqual({ address: defaults.vote.address });
    expect(limits.signIn).toEqual(defaults.signIn);
  });

  it('ships a sign-up limit per address and for everyone', () => {
    expect(defaultRateLimits().signUp).toEqual({
      address: { points: 5, seconds: 3_600 },
      global: { points: 5, seconds: 10 },
    });
  });

  it("limits mergeStars per account by default, and reads a stack's rule for it", () => {
    expect(defaultRateLimits().mergeStars.account).toEqual({ points: 20, seconds: 60 });
    const limits = rateLimitsSchema.parse('{"mergeStars":{"account":"5/1m"}}');
    if (limits === 'off') throw new Error('expected limits');
    expect(limits.mergeStars.account).toEqual({ points: 5, seconds: 60 });
  });

  it('limits People board listing changes per account only, 10 a minute, by default', () => {
    expect(defaultRateLimits().setPeopleListing).toEqual({ account: { points: 10, seconds: 60 } });
    const limits = rateLimitsSchema.parse('{"setPeopleListing":{"account":null}}');
    if (limits === 'off') throw new Error('expected limits');
    expect(limits.setPeopleListing).toEqual({});
  });

  it("limits a person's turns per account only by default", () => {
    expect(defaultRateLimits().submitTurn).toEqual({ account: { points: 20, seconds: 60 } });
    const limits = rateLimitsSchema.parse('{"submitTurn":{"account":"5/1m"}}');
    if (limits === 'off') throw new Error('expected limits');
    expect(limits.submitTurn.account).toEqual({ points: 5, seconds: 60 });
  });

  it('turns every limit off with `off`, and refuses unknown actions and scopes', () => {
    expect(rateLimitsSchema.parse('off')).toBe('off');
    expect(rateLimitsSchema.safeParse('{"signup":{"address":"1/1m"}}').success).toBe(false);
    expect(rateLimitsSchema.safeParse('{"signUp":{"ip":"1/1m"}}').success).toBe(false);
    expect(rateLimitsSchema.safeParse('{"signUp":').success).toBe(false);
  });
});
