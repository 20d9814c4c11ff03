import { communityDebateContracts, type StanceBefore, type VoteKind } from '@debate/contracts';
import { type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommunityServiceModule } from '../src/index.js';
import { debateOf, share } from './fixtures.js';

// Minds changed: where a reader stood before reading (asked once), and their For/Against vote
// after it, counted in the debate's copy among the readers who gave both.
describe('minds changed', () => {
  let community: ServiceUnderTest;

  const standBefore = (readerId: string, debateId: string, stance: StanceBefore | null) =>
    community.client.request(communityDebateContracts.standBefore, { readerId, debateId, stance });
  const vote = (voterId: string, debateId: string, kind: VoteKind | null) =>
    community.client.request(communityDebateContracts.vote, { voterId, debateId, kind });
  const read = (debateId: string, viewerId?: string) =>
    community.client.request(communityDebateContracts.get, {
      debateId,
      countView: false,
      ...(viewerId ? { viewerId } : {}),
    });

  beforeAll(async () => {
    community = await startServiceUnderTest({
      service: 'community',
      register: (runtime) => CommunityServiceModule.register(runtime),
      // 1,000 readers' answers on one debate queue up behind each other in the embedded store.
      timeoutMs: 60_000,
    });
  });

  afterAll(async () => {
    await community?.stop();
  });

  it('asks a reader once, before any vote, and never the author', async () => {
    await share(community, debateOf('m1'));
    expect((await read('m1', 'ada')).viewer).toEqual({
      myVote: null,
      standBefore: null,
      askBefore: true,
    });
    expect(await standBefore('ada', 'm1', 'AGAINST')).toEqual({
      found: true,
      viewer: { myVote: null, standBefore: 'AGAINST', askBefore: false },
      mindsChanged: { readers: 0, shares: null },
    });
    // Not changeable afterwards.
    expect(await standBefore('ada', 'm1', 'FOR')).toMatchObject({ refused: 'answered' });
    expect((await read('m1', 'ada')).viewer?.standBefore).toBe('AGAINST');
    // A skip is an answer too: not asked again.
    expect(await standBefore('bo', 'm1', null)).toMatchObject({
      found: true,
      viewer: { standBefore: 'SKIPPED', askBefore: false },
    });
    expect(await standBefore('bo', 'm1', 'FOR')).toMatchObject({ refused: 'answered' });
    // A reader who voted first is not asked: their mind before reading is unknown.
    await vote('cy', 'm1', 'FOR');
    expect((await read('m1', 'cy')).viewer).toEqual({
      myVote: 'FOR',
      standBefore: 'SKIPPED',
      askBefore: false,
    });
    expect(await standBefore('cy', 'm1', 'AGAINST')).toEqual({
      refused: 'voted',
      message:
        'You have voted on this debate: where you stood before reading it can no longer be asked.',
    });
    // Taking the vote back does not open the question again.
    await vote('cy', 'm1', null);
    expect((await read('m1', 'cy')).viewer?.askBefore).toBe(false);
    expect(await standBefore('cy', 'm1', 'AGAINST')).toMatchObject({ refused: 'answered' });
    expect((await read('m1', 'cy')).viewer?.standBefore).toBe('SKIPPED');
    // The author (whose own For vote the copy starts with).
    const author = debateOf('m1').userId;
    expect((await read('m1', author)).viewer?.askBefore).toBe(false);
    expect(await standBefore(author, 'm1', 'FOR')).toMatchObject({ refused: 'author' });
    // Signed out: no marks. An unknown debate: not found, nothing stored.
    expect((await read('m1')).viewer).toBeNull();
    expect(await standBefore('ada', 'nope', 'FOR')).toEqual({ found: false });
  });

  it('shows shares and gains from five readers who gave both, and the winner by gain', async () => {
    await share(community, debateOf('m2'));
    // Before: 2 For, 2 Against, 1 Undecided. After: 2 For, 3 Against (Undecided went Against,
    // and one For reader too; one Against reader went For).
    const readers: Array<[string, StanceBefore, VoteKind]> = [
      ['r1', 'FOR', 'FOR'],
      ['r2', 'FOR', 'AGAINST'],
      ['r3', 'AGAINST', 'AGAINST'],
      ['r4', 'AGAINST', 'FOR'],
      ['r5', 'UNDECIDED', 'AGAINST'],
    ];
    for (const [id, before, after] of readers.slice(0, 4)) {
      await standBefore(id, 'm2', before);
      await vote(id, 'm2', after);
    }
    // Below five: only how many.
    expect((await read('m2')).debate?.mindsChanged).toEqual({ readers: 4, shares: null });
    // An Interesting vote is no stance after reading; a skip counts nowhere.
    await standBefore('r6', 'm2', 'FOR');
    await vote('r6', 'm2', 'INTERESTING');
    await standBefore('r7', 'm2', null);
    await vote('r7', 'm2', 'FOR');
    expect((await read('m2')).debate?.mindsChanged.readers).toBe(4);
    const [id, before, after] = readers[4] ?? ['', 'FOR', 'FOR'];
    await standBefore(id, 'm2', before);
    const voted = await vote(id, 'm2', after);
    const expected = {
      readers: 5,
      shares: {
        before: { for: 40, against: 40, undecided: 20 },
        after: { for: 40, against: 60 },
        gain: { for: 0, against: 20 },
        // In readers: Against one more after than before, For as many.
        gainedReaders: { for: 0, against: 1 },
        winner: 'AGAINST',
      },
    };
    expect(voted).toMatchObject({ found: true, mindsChanged: expected });
    expect((await read('m2')).debate?.mindsChanged).toEqual(expected);
    // A changed vote moves the reader's cell (For now gains one reader, Against none); a vote
    // taken back takes the reader out.
    await vote('r2', 'm2', 'FOR');
    expect((await read('m2')).debate?.mindsChanged.shares).toMatchObject({
      after: { for: 60, against: 40 },
      gain: { for: 20, against: 0 },
      gainedReaders: { for: 1, against: 0 },
      winner: 'FOR',
    });
    await vote('r5', 'm2', null);
    expect((await read('m2')).debate?.mindsChanged).toEqual({ readers: 4, shares: null });
  });

  it('keeps the counts exact under 1,000 concurrent answers', async () => {
    await share(community, debateOf('m3'));
    const stances: StanceBefore[] = ['FOR', 'AGAINST', 'UNDECIDED'];
    const answers = Array.from({ length: 1_000 }, (_, i) => ({
      id: `crowd-${i}`,
      before: stances[i % 3] ?? 'FOR',
      after: (i % 2 === 0 ? 'FOR' : 'AGAINST') as VoteKind,
    }));
    // Every reader answers before and votes after, all at once (each reader's two in order),
    // and a third of them try to answer twice.
    await Promise.all(
      answers.map(async ({ id, before, after }, i) => {
        await Promise.all([
          standBefore(id, 'm3', before),
          ...(i % 3 === 0 ? [standBefore(id, 'm3', 'UNDECIDED')] : []),
        ]);
        await vote(id, 'm3', after);
      }),
    );
    const { debate } = await read('m3');
    // Each reader's first answer to land is theirs; count from what was stored.
    const stored = await Promise.all(
      answers.map(async ({ id }) => (await read('m3', id)).viewer?.standBefore),
    );
    const count = (before: StanceBefore) => stored.filter((stance) => stance === before).length;
    expect(debate?.mindsChanged.readers).toBe(1_000);
    expect(debate?.mindsChanged.shares?.before).toEqual({
      for: count('FOR') / 10,
      against: count('AGAINST') / 10,
      undecided: count('UNDECIDED') / 10,
    });
    expect(debate?.mindsChanged.shares?.after).toEqual({ for: 50, against: 50 });
    // 1,000 For and Against votes and the author's For.
    expect(debate).toMatchObject({ upvotes: 501, downvotes: 500 });
  }, 120_000);
});
