import { communityDebateContracts } from '@debate/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommunityServiceModule } from '../src/index.js';
import { debateOf, rank, rankedIds, share, unshare } from './fixtures.js';

// Stars: a user's own bookmarks of public debates, and a signed-out visitor's, kept in the browser.
describe('stars', () => {
  let community: ServiceUnderTest;

  const toggle = (userId: string, debateId: string) =>
    community.client.request(communityDebateContracts.toggleStar, { userId, debateId });
  const merge = (userId: string, debateIds: string[]) =>
    community.client.request(communityDebateContracts.mergeStars, { userId, debateIds });
  const starredOf = async (viewerId: string) =>
    Object.fromEntries(
      (await rank(community, { viewerId })).debates.map((debate) => [debate.id, debate.starred]),
    );

  beforeAll(async () => {
    community = await startServiceUnderTest({
      service: 'community',
      register: (runtime) => CommunityServiceModule.register(runtime),
    });
    for (const id of ['s1', 's2', 's3']) await share(community, debateOf(id));
  });

  afterAll(async () => {
    await community?.stop();
  });

  it('stars a public debate for the user and takes the star away again', async () => {
    expect(await toggle('ada', 's1')).toEqual({ found: true, starred: true });
    expect(await toggle('ada', 's2')).toEqual({ found: true, starred: true });
    expect(await toggle('ada', 's2')).toEqual({ found: true, starred: false });
    expect(await toggle('ada', 'no-such-debate')).toEqual({ found: false });
    // On the cards, each viewer sees their own stars.
    expect(await starredOf('ada')).toEqual({ s1: true, s2: false, s3: false });
    expect(await starredOf('bo')).toEqual({ s1: false, s2: false, s3: false });
  });

  it('sets the star as asked however often it is sent (a retry after a lost answer)', async () => {
    const set = (starred: boolean, debateId = 's3') =>
      community.client.request(communityDebateContracts.toggleStar, {
        userId: 'eli',
        debateId,
        starred,
      });
    expect(await set(true)).toEqual({ found: true, starred: true });
    expect(await set(true)).toEqual({ found: true, starred: true });
    expect(await starredOf('eli')).toEqual({ s1: false, s2: false, s3: true });
    expect(await set(false)).toEqual({ found: true, starred: false });
    expect(await set(false)).toEqual({ found: true, starred: false });
    expect(await starredOf('eli')).toEqual({ s1: false, s2: false, s3: false });
    expect(await set(true, 'no-such-debate')).toEqual({ found: false });
  });

  it("shows the user's starred debates only, when asked", async () => {
    await toggle('cy', 's3');
    await toggle('cy', 's1');
    expect(await rankedIds(community, { viewerId: 'cy', starredOnly: true })).toEqual(['s3', 's1']);
    const { debates } = await rank(community, { viewerId: 'cy', starredOnly: true });
    expect(debates.every((debate) => debate.starred)).toBe(true);
    expect(await rankedIds(community, { viewerId: 'dee', starredOnly: true })).toEqual([]);
    // The Starred view keeps to the other filters.
    expect(
      await rankedIds(community, { viewerId: 'cy', starredOnly: true, category: 'Funny' }),
    ).toEqual([]);
  });

  it("shows a signed-out visitor's stars, kept in their browser", async () => {
    const visitor = { starredIds: ['s2', 'no-such-debate'] };
    const { debates } = await rank(community, visitor);
    expect(Object.fromEntries(debates.map((debate) => [debate.id, debate.starred]))).toEqual({
      s1: false,
      s2: true,
      s3: false,
    });
    expect(await rankedIds(community, { ...visitor, starredOnly: true })).toEqual(['s2']);
    expect(await rankedIds(community, { starredIds: [], starredOnly: true })).toEqual([]);
  });

  it("adds a visitor's stars to their account at sign-in, public debates only", async () => {
    await toggle('eli', 's1');
    const { debateIds } = await merge('eli', ['s2', 's1', 'no-such-debate', 's2']);
    expect([...debateIds].sort()).toEqual(['s1', 's2']);
    expect(await starredOf('eli')).toEqual({ s1: true, s2: true, s3: false });
    // Merging again changes nothing; merging none answers the user's stars.
    expect([...(await merge('eli', ['s2'])).debateIds].sort()).toEqual(['s1', 's2']);
    expect([...(await merge('eli', [])).debateIds].sort()).toEqual(['s1', 's2']);
  });

  it('lets a star go from a debate no longer public, and never puts one on it', async () => {
    await share(community, debateOf('s4'));
    await toggle('fay', 's4');
    await unshare(community, 's4');
    expect(await rankedIds(community, { viewerId: 'fay', starredOnly: true })).toEqual([]);
    expect(await toggle('fay', 's4')).toEqual({ found: true, starred: false });
    expect(await toggle('fay', 's4')).toEqual({ found: false });
    expect((await merge('fay', ['s4'])).debateIds).toEqual([]);
  });
});
