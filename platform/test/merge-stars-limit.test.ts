import { defaultGatewayLimits } from '@debate/gateway';
import { inProcessTransport } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { graphql, type SignedUp, signUpThroughGateway } from './graphql-client.js';
import { startTestPlatform, type TestPlatform } from './test-platform.js';

const MERGE = 'mutation ($ids: [String!]!) { mergeStars(debateIds: $ids) }';
/** The most aliases one operation may hold (GRAPHQL_MAX_ALIASES). */
const ALIASES = 15;

// mergeStars carries up to 500 ids a request; its limit per account is what keeps a script (and
// its aliases) from writing stars without end.
describe('mergeStars, limited per account', () => {
  let running: TestPlatform;
  let ada: SignedUp;
  let bob: SignedUp;

  const merge = (person: SignedUp, query = MERGE) =>
    graphql<{ mergeStars: string[] }>(running.platform.url, query, {
      variables: { ids: ['a1', 'a2'] },
      headers: { authorization: `Bearer ${person.token}` },
    });

  beforeAll(async () => {
    running = await startTestPlatform(inProcessTransport(), { limits: defaultGatewayLimits() });
    ada = await signUpThroughGateway(running.platform.url, 'ada@example.org');
    bob = await signUpThroughGateway(running.platform.url, 'bob@example.org');
  }, 60_000);

  afterAll(async () => {
    await running?.teardown();
  });

  it('counts each alias, and refuses the merge over the limit with RATE_LIMITED and Retry-After', async () => {
    const limits = defaultGatewayLimits().rateLimits;
    if (limits === 'off') throw new Error('the shipped limits are off');
    const perAccount = limits.mergeStars.account?.points ?? 0;
    expect(perAccount).toBeGreaterThan(ALIASES);

    // One request of 15 aliases takes 15 of the account's merges.
    const aliased = Array.from({ length: ALIASES }, (_, i) => `m${i}: mergeStars(debateIds: $ids)`);
    const many = await merge(ada, `mutation ($ids: [String!]!) { ${aliased.join(' ')} }`);
    expect(many.errors).toBeUndefined();
    for (let i = ALIASES; i < perAccount; i += 1) {
      expect((await merge(ada)).data?.mergeStars).toEqual([]);
    }

    const over = await merge(ada);
    expect(over.status).toBe(429);
    expect(over.data ?? null).toBeNull();
    expect(over.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(over.errors?.[0]?.message).toMatch(
      /^Too many attempts\. Try again in (\d+ seconds?|1 minute)\.$/,
    );
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.errors?.[0]?.extensions?.['retryAfter']).toBe(retryAfter);

    // Another account, from the same address, still merges.
    expect((await merge(bob)).data?.mergeStars).toEqual([]);
  });
});
