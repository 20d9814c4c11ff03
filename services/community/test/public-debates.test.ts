import { communityDebateContracts, debateSharedEvent } from '@debate/contracts';
import {
  eventually,
  offlineVerdict,
  type ServiceUnderTest,
  startServiceUnderTest,
} from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommunityServiceModule } from '../src/index.js';
import {
  ago,
  debateOf,
  HOUR,
  MINUTE,
  publicCopy,
  rank,
  rankedIds,
  share,
  unshare,
} from './fixtures.js';

// The community's copies of shared debates, kept in step with the debates service's events.
describe('the public debates', () => {
  let community: ServiceUnderTest;

  beforeAll(async () => {
    community = await startServiceUnderTest({
      service: 'community',
      register: (runtime) => CommunityServiceModule.register(runtime),
    });
  });

  afterAll(async () => {
    await community?.stop();
  });

  it("publishes a shared debate with its rounds and the author's own For vote", async () => {
    // The private debate's counters are not the community's: its copy starts afresh.
    const debate = debateOf('p1', {
      userDisplayName: '  ',
      views: 9,
      upvotes: 4,
      downvotes: 2,
      verdict: offlineVerdict(8, 4),
      rematchOf: 'p0',
    });
    await share(community, debate);
    // Once the leaderboard has read it, it says whether it is rated.
    const copy = await eventually(
      () => publicCopy(community, 'p1'),
      (found) => found?.rating !== null,
    );
    expect(copy).toEqual({
      id: 'p1',
      userId: 'author-p1',
      userDisplayName: 'Anonymous',
      // A person's debate, not one of the examples npm start seeds.
      example: false,
      topic: 'Topic p1',
      categories: ['Politics'],
      timestamp: debate.timestamp,
      sharedAt: debate.sharedAt,
      views: 0,
      upvotes: 1,
      downvotes: 0,
      interesting: 0,
      isPublic: true,
      model1: debate.model1,
      model2: debate.model2,
      rounds: debate.rounds,
      // The judges' scorecard goes public with it, and its format and pair.
      verdict: debate.verdict,
      debateFormat: 'structured',
      moderatorEnabled: false,
      rematchOf: 'p0',
      // It ran to its end.
      stopped: false,
      // No reader has said where they stood yet.
      mindsChanged: { readers: 0, shares: null },
      // What wrote its second speaker was not kept (the fixture's): not rated.
      rating: 'NOT_RECORDED',
    });
    // ... and is on its ranking card.
    const ranked = await rank(community);
    expect(ranked.debates.find((card) => card.id === 'p1')?.verdict).toEqual(debate.verdict);
    // The author's vote is theirs, as anyone's would be.
    expect(
      await community.client.request(communityDebateContracts.vote, {
        voterId: 'author-p1',
        debateId: 'p1',
        kind: 'FOR',
      }),
    ).toEqual({
      found: true,
      counts: { upvotes: 1, downvotes: 0, interesting: 0 },
      myVote: 'FOR',
      mindsChanged: { readers: 0, shares: null },
    });
  });

  it('keeps a debate its author stopped before the end marked as stopped', async () => {
    await share(community, debateOf('p9', { stopped: true, verdict: null }));
    const copy = await eventually(
      () => publicCopy(community, 'p9'),
      (found) => found !== null,
    );
    expect(copy).toMatchObject({ stopped: true, verdict: null });
    const ranked = await rank(community);
    expect(ranked.debates.find((card) => card.id === 'p9')?.stopped).toBe(true);
  });

  it('keeps one copy however often a share is announced, and its votes with it', async () => {
    const debate = debateOf('p2');
    await share(community, debate);
    await community.client.request(communityDebateContracts.vote, {
      voterId: 'bo',
      debateId: 'p2',
      kind: 'AGAINST',
    });
    // The same share delivered again (a redelivery, or a retry under another event id).
    await community.events.publish(debateSharedEvent, { debate }, 'shared:p2:again');
    // Something announced after it, to know it was handled.
    await share(community, debateOf('p2-after'));
    expect(await publicCopy(community, 'p2')).toMatchObject({
      topic: 'Topic p2',
      upvotes: 1,
      downvotes: 1,
    });
    expect((await rankedIds(community)).filter((id) => id === 'p2')).toHaveLength(1);
  });

  it('takes an unshared debate down, and no share from before can bring it back', async () => {
    const debate = debateOf('p3', { sharedAt: ago(HOUR) });
    await share(community, debate);
    await unshare(community, 'p3', ago(MINUTE));
    expect(await rankedIds(community)).not.toContain('p3');
    expect(
      await community.client.request(communityDebateContracts.vote, {
        voterId: 'bo',
        debateId: 'p3',
        kind: 'FOR',
      }),
    ).toEqual({ found: false });

    // The share it undid, arriving late (events may come out of order): still down.
    await community.events.publish(debateSharedEvent, { debate }, 'shared:p3:late');
    // Something announced after it, to know it was handled.
    await share(community, debateOf('p3-after'));
    expect(await publicCopy(community, 'p3')).toBeNull();

    // Shared anew, later: public again.
    await share(community, { ...debate, sharedAt: new Date().toISOString() });
    expect(await rankedIds(community)).toContain('p3');
  });

  it('shows a debate with the other half of its side-swapped pair, while that one is public', async () => {
    await share(community, debateOf('q1'));
    await share(community, debateOf('q2', { rematchOf: 'q1', verdict: offlineVerdict(5, 7) }));
    const pairOf = async (debateId: string) =>
      (await community.client.request(communityDebateContracts.get, { debateId, countView: false }))
        .pair;
    expect(await pairOf('q1')).toMatchObject({
      id: 'q2',
      isRematch: true,
      verdict: { winner: 'Second Speaker' },
    });
    expect(await pairOf('q2')).toMatchObject({ id: 'q1', isRematch: false, verdict: null });
    await unshare(community, 'q2');
    expect(await pairOf('q1')).toBeNull();
  });
});
