import { communityDebateContracts, type VoteKind } from '@debate/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommunityServiceModule } from '../src/index.js';
import { debateOf, publicCopy, rank, share, unshare } from './fixtures.js';

/** No reader said where they stood before reading: minds changed has nobody to count. */
const NO_READERS = { readers: 0, shares: null };

// For, Against or Interesting: one vote per user per debate, counted in the debate's copy.
describe('votes', () => {
  let community: ServiceUnderTest;

  const vote = (voterId: string, debateId: string, kind: VoteKind | null) =>
    community.client.request(communityDebateContracts.vote, { voterId, debateId, kind });

  beforeAll(async () => {
    community = await startServiceUnderTest({
      service: 'community',
      register: (runtime) => CommunityServiceModule.register(runtime),
    });
  });

  afterAll(async () => {
    await community?.stop();
  });

  it('casts, changes and takes back a vote, answering the counts', async () => {
    await share(community, debateOf('v1'));
    expect(await vote('ada', 'v1', 'AGAINST')).toEqual({
      found: true,
      counts: { upvotes: 1, downvotes: 1, interesting: 0 },
      myVote: 'AGAINST',
      mindsChanged: NO_READERS,
    });
    // The same vote again changes nothing.
    expect(await vote('ada', 'v1', 'AGAINST')).toEqual({
      found: true,
      counts: { upvotes: 1, downvotes: 1, interesting: 0 },
      myVote: 'AGAINST',
      mindsChanged: NO_READERS,
    });
    expect(await vote('ada', 'v1', 'INTERESTING')).toEqual({
      found: true,
      counts: { upvotes: 1, downvotes: 0, interesting: 1 },
      myVote: 'INTERESTING',
      mindsChanged: NO_READERS,
    });
    expect(await vote('ada', 'v1', 'FOR')).toEqual({
      found: true,
      counts: { upvotes: 2, downvotes: 0, interesting: 0 },
      myVote: 'FOR',
      mindsChanged: NO_READERS,
    });
    expect(await vote('ada', 'v1', null)).toEqual({
      found: true,
      counts: { upvotes: 1, downvotes: 0, interesting: 0 },
      myVote: null,
      mindsChanged: NO_READERS,
    });
    // Taking back a vote one does not have changes nothing either.
    expect(await vote('bo', 'v1', null)).toEqual({
      found: true,
      counts: { upvotes: 1, downvotes: 0, interesting: 0 },
      myVote: null,
      mindsChanged: NO_READERS,
    });
    expect(await publicCopy(community, 'v1')).toMatchObject({
      upvotes: 1,
      downvotes: 0,
      interesting: 0,
    });
  });

  it("shows each viewer their own vote on the ranking's cards, and the counts to all", async () => {
    await share(community, debateOf('v2'));
    await vote('ada', 'v2', 'INTERESTING');
    await vote('bo', 'v2', 'AGAINST');
    const cardFor = async (viewerId?: string) =>
      (await rank(community, viewerId ? { viewerId } : {})).debates.find(
        (debate) => debate.id === 'v2',
      );
    const counts = { upvotes: 1, downvotes: 1, interesting: 1 };
    expect(await cardFor('ada')).toMatchObject({ ...counts, myVote: 'INTERESTING' });
    expect(await cardFor('bo')).toMatchObject({ ...counts, myVote: 'AGAINST' });
    expect(await cardFor('author-v2')).toMatchObject({ ...counts, myVote: 'FOR' });
    expect(await cardFor('cy')).toMatchObject({ ...counts, myVote: null });
    expect(await cardFor()).toMatchObject({ ...counts, myVote: null });
  });

  it('counts every vote of many voters at once, each voter once', async () => {
    await share(community, debateOf('v3'));
    const kinds: VoteKind[] = ['FOR', 'AGAINST', 'INTERESTING'];
    // 60 voters, each casting then changing their vote, all at once.
    const voters = Array.from({ length: 60 }, (_, index) => `voter-${index}`);
    await Promise.all(
      voters.flatMap((voter, index) => [
        vote(voter, 'v3', kinds[index % 3] ?? 'FOR'),
        vote(voter, 'v3', kinds[(index + 1) % 3] ?? 'FOR'),
      ]),
    );
    // Whichever of each voter's two votes came last, each voter counts once.
    const copy = await publicCopy(community, 'v3');
    expect((copy?.upvotes ?? 0) + (copy?.downvotes ?? 0) + (copy?.interesting ?? 0)).toBe(61);
    // And the counts are the voters' final votes.
    const finals = await Promise.all(
      voters.map(async (voter) => {
        const card = (await rank(community, { viewerId: voter })).debates.find(
          (debate) => debate.id === 'v3',
        );
        return card?.myVote ?? null;
      }),
    );
    const count = (kind: VoteKind) => finals.filter((final) => final === kind).length;
    expect({
      upvotes: copy?.upvotes,
      downvotes: copy?.downvotes,
      interesting: copy?.interesting,
    }).toEqual({
      upvotes: count('FOR') + 1,
      downvotes: count('AGAINST'),
      interesting: count('INTERESTING'),
    });
  });

  it('takes no vote on a debate that is not public', async () => {
    expect(await vote('ada', 'no-such-debate', 'FOR')).toEqual({ found: false });
    await share(community, debateOf('v4'));
    await unshare(community, 'v4');
    expect(await vote('ada', 'v4', 'FOR')).toEqual({ found: false });
    expect(await vote('ada', 'v4', null)).toEqual({ found: false });
  });
});
