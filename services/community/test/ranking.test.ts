import { communityDebateContracts, type RankingSort, type VoteKind } from '@debate/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommunityServiceModule } from '../src/index.js';
import { ago, DAY, debateOf, MINUTE, rank, rankedIds, share } from './fixtures.js';

const sorts: readonly RankingSort[] = ['popular', 'recent', 'controversial'];

/** The offset from UTC (minutes east) of a viewer whose clock now reads `localMinutes`. */
function offsetWhereClockReads(localMinutes: number): number {
  const now = new Date();
  const utcMinutes = now.getUTCHours() * 60 + now.getUTCMinutes();
  return ((((localMinutes - utcMinutes) % 1440) + 1440 + 720) % 1440) - 720;
}

// The ranking screen's query, answered by the community service from its copies.
describe('the ranking', () => {
  let community: ServiceUnderTest;

  const vote = (debateId: string, kind: VoteKind, times: number) =>
    Promise.all(
      Array.from({ length: times }, (_, index) =>
        community.client.request(communityDebateContracts.vote, {
          voterId: `${debateId}-${kind}-${index}`,
          debateId,
          kind,
        }),
      ),
    );

  beforeAll(async () => {
    community = await startServiceUnderTest({
      service: 'community',
      register: (runtime) => CommunityServiceModule.register(runtime),
    });
    // Each copy starts with its author's For vote.
    await share(
      community,
      debateOf('new', { sharedAt: ago(45 * MINUTE), categories: ['Science'] }),
    );
    await share(
      community,
      debateOf('2-days', { sharedAt: ago(2 * DAY), categories: ['Science', 'Ethics'] }),
    );
    await share(
      community,
      debateOf('10-days', { sharedAt: ago(10 * DAY), categories: ['Ethics'] }),
    );
    await share(community, debateOf('60-days', { sharedAt: ago(60 * DAY), categories: ['Funny'] }));
    await vote('new', 'AGAINST', 3); // 1 For, 3 Against
    await vote('2-days', 'FOR', 9); // 10 For, 1 Against
    await vote('2-days', 'AGAINST', 1);
    await vote('10-days', 'FOR', 3); // 4 For, 4 Against: the most controversial
    await vote('10-days', 'AGAINST', 4);
    await vote('10-days', 'INTERESTING', 5); // moves neither score
  });

  afterAll(async () => {
    await community?.stop();
  });

  it('sorts by the surest share of For votes, by recency, or by controversy', async () => {
    expect(await rankedIds(community, { sort: 'recent' })).toEqual([
      'new',
      '2-days',
      '10-days',
      '60-days',
    ]);
    // Wilson's lower bound: 10/1 (0.62) > 4/4 (0.22) > 1/0 (0.21) > 1/3 (0.05).
    expect(await rankedIds(community, { sort: 'popular' })).toEqual([
      '2-days',
      '10-days',
      '60-days',
      'new',
    ]);
    // Controversy: 8^1 > 4^(1/3) > 11^(1/10) > 0 for a one-sided debate.
    expect(await rankedIds(community, { sort: 'controversial' })).toEqual([
      '10-days',
      'new',
      '2-days',
      '60-days',
    ]);
  });

  it("keeps to a period: the viewer's today, the last week, the last month", async () => {
    // For a viewer whose clock reads noon, the debate shared 45 minutes ago is today's.
    const noon = offsetWhereClockReads(12 * 60);
    expect(await rankedIds(community, { period: 'today', utcOffsetMinutes: noon })).toEqual([
      'new',
    ]);
    // For one whose clock reads half past midnight, it is yesterday's.
    const afterMidnight = offsetWhereClockReads(30);
    expect(
      await rankedIds(community, { period: 'today', utcOffsetMinutes: afterMidnight }),
    ).toEqual([]);
    expect(await rankedIds(community, { period: 'week' })).toEqual(['new', '2-days']);
    expect(await rankedIds(community, { period: 'month', sort: 'controversial' })).toEqual([
      '10-days',
      'new',
      '2-days',
    ]);
    expect(await rankedIds(community, { period: 'all' })).toHaveLength(4);
  });

  it('filters by category', async () => {
    expect(await rankedIds(community, { category: 'Ethics', sort: 'popular' })).toEqual([
      '2-days',
      '10-days',
    ]);
    expect(await rankedIds(community, { category: 'Science' })).toEqual(['new', '2-days']);
    expect(await rankedIds(community, { category: 'Culture' })).toEqual([]);
  });

  it('pages through each sort, each debate once, in the order of one long page', async () => {
    for (const sort of sorts) {
      const whole = await rankedIds(community, { sort });
      for (const limit of [1, 3]) {
        const paged: string[] = [];
        let after: string | undefined;
        for (let page = 0; page < 10; page += 1) {
          const reply = await rank(community, { sort, limit, ...(after ? { after } : {}) });
          expect(reply.debates.length).toBeLessThanOrEqual(limit);
          paged.push(...reply.debates.map((debate) => debate.id));
          if (!reply.next) break;
          after = reply.next;
        }
        expect([sort, limit, paged]).toEqual([sort, limit, whole]);
      }
    }
  });

  it('refuses a cursor it did not make, or made for another sort', async () => {
    const invalid = { invalid: 'cursor', message: expect.stringMatching(/Invalid cursor/) };
    const ask = (sort: RankingSort, after: string) =>
      community.client.request(communityDebateContracts.rank, {
        sort,
        period: 'all',
        utcOffsetMinutes: 0,
        starredOnly: false,
        after,
        limit: 1,
      });
    expect(await ask('recent', 'bogus')).toEqual(invalid);
    const { next } = await rank(community, { sort: 'recent', limit: 1 });
    expect(await ask('popular', next ?? '')).toEqual(invalid);
    expect(await ask('recent', next ?? '')).toMatchObject({ debates: [{ id: '2-days' }] });
  });

  it('follows the votes: a debate voted up rises', async () => {
    await vote('60-days', 'FOR', 10); // 11 For, none Against
    expect((await rankedIds(community, { sort: 'popular' }))[0]).toBe('60-days');
  });
});
