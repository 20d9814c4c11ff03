import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { setupStore } from '../../app/store';
import type { VoteMutation } from '../../gql/graphql';
import {
  type CommunityDebate,
  communityApi,
  type PublicDebatePage,
  type RankingArgs,
} from './community.api';
import { offlineDebate } from './community.fixtures';

const ranking: RankingArgs = {
  category: null,
  sort: 'MOST_RECENT',
  period: 'ALL_TIME',
  starredOnly: false,
  starredIds: null,
  after: null,
  viewer: 'u1',
};

/** Debate `id` as the reader u1 is shown it. */
const reader = (id: string) => ({ id, viewer: 'u1' });

const card = (id: string): CommunityDebate => ({ ...offlineDebate, id, topic: `Debate ${id}` });

const page: PublicDebatePage = {
  ...card('d1'),
  rounds: [],
  verdict: null,
  standBefore: null,
  askBefore: false,
  pairedWith: null,
};

const realFetch = globalThis.fetch;
/** The requests the gateway holds, oldest first. */
let held: Array<(body: object) => void> = [];
/** Answers the oldest request the gateway holds, with this body. */
const answer = (body: object) => held.shift()?.(body);

beforeEach(() => {
  held = [];
  globalThis.fetch = jest.fn<typeof fetch>(
    () =>
      new Promise<Response>((resolve) => {
        held.push((body) => resolve({ ok: true, status: 200, json: async () => body } as Response));
      }),
  );
});

afterEach(() => {
  globalThis.fetch = realFetch;
});

/**
 * A store whose cache holds a ranking page (d1, d2) and d1's page as the reader u1 saw them, and
 * the ranking as it was shown before they signed in.
 */
async function cached() {
  const store = setupStore();
  for (const viewer of ['u1', null]) {
    await store.dispatch(
      communityApi.util.upsertQueryData(
        'communityDebates',
        { ...ranking, viewer },
        { debates: [card('d1'), card('d2')], next: null },
      ),
    );
  }
  await store.dispatch(communityApi.util.upsertQueryData('communityDebate', reader('d1'), page));
  const shown = () => {
    const state = store.getState();
    const [d1, d2] =
      communityApi.endpoints.communityDebates.select(ranking)(state).data?.debates ?? [];
    const signedOut = communityApi.endpoints.communityDebates.select({ ...ranking, viewer: null });
    return {
      d1,
      d2,
      signedOut: signedOut(state).data?.debates[0],
      page: communityApi.endpoints.communityDebate.select(reader('d1'))(state).data,
    };
  };
  return { store, shown };
}

describe('a vote', () => {
  it('counts at once wherever the debate is shown, and goes back when refused', async () => {
    const { store, shown } = await cached();
    const voting = store.dispatch(
      communityApi.endpoints.vote.initiate({ ...reader('d1'), kind: 'AGAINST' }),
    );
    const marks = { upvotes: 0, downvotes: 1, interesting: 0, myVote: 'AGAINST' };
    expect(shown().d1).toMatchObject(marks);
    expect(shown().page).toMatchObject(marks);
    expect(shown().d2).toEqual(card('d2'));
    // Not the reader's own copy: left as it was.
    expect(shown().signedOut).toEqual(card('d1'));

    const refusal = 'Too many attempts. Try again in 1 minute.';
    answer({ errors: [{ message: refusal, extensions: { code: 'RATE_LIMITED' } }] });
    await expect(voting.unwrap()).rejects.toMatchObject({ message: refusal });
    expect(shown().d1).toEqual(card('d1'));
    expect(shown().page).toEqual(page);
  });

  it('then shows what the server counted, minds changed included', async () => {
    const { store, shown } = await cached();
    const voting = store.dispatch(
      communityApi.endpoints.vote.initiate({ ...reader('d1'), kind: 'INTERESTING' }),
    );
    const marks = {
      upvotes: 4,
      downvotes: 2,
      interesting: 3,
      myVote: 'INTERESTING',
      mindsChanged: { readers: 2, shares: null },
    } as const;
    const counted: VoteMutation['vote'] = { debateId: 'd1', ...marks };
    answer({ data: { vote: counted } });
    await voting.unwrap();
    expect(shown().d1).toMatchObject(marks);
    // The reader voted: not asked where they stood before any more.
    expect(shown().page).toMatchObject({ ...marks, askBefore: false, standBefore: 'SKIPPED' });
  });
});

describe('two votes on one debate in flight', () => {
  const counts = (upvotes: number, downvotes: number, interesting: number) => ({
    upvotes,
    downvotes,
    interesting,
  });

  it('show the later one: an earlier answer arriving later, or an earlier refusal, changes nothing', async () => {
    const { store, shown } = await cached();
    const vote = (kind: 'AGAINST' | 'INTERESTING') =>
      store.dispatch(communityApi.endpoints.vote.initiate({ ...reader('d1'), kind }));
    const first = vote('AGAINST');
    const second = vote('INTERESTING');
    // The card starts at one For (the fixture's myVote): Against, then Interesting.
    expect(shown().d1).toMatchObject({ ...counts(0, 0, 1), myVote: 'INTERESTING' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(held).toHaveLength(2);

    // The first is refused after the second was shown: undoing it would show For again.
    answer({ errors: [{ message: 'Your vote could not be counted. Please try again.' }] });
    await expect(first.unwrap()).rejects.toBeTruthy();
    expect(shown().d1).toMatchObject({ ...counts(0, 0, 1), myVote: 'INTERESTING' });

    const counted = { debateId: 'd1', ...counts(3, 1, 2), myVote: 'INTERESTING' as const };
    answer({ data: { vote: { ...counted, mindsChanged: { readers: 0, shares: null } } } });
    await second.unwrap();
    expect(shown().d1).toMatchObject({ ...counts(3, 1, 2), myVote: 'INTERESTING' });
  });

  it('keep the later answer when an earlier one arrives after it', async () => {
    const { store, shown } = await cached();
    const vote = (kind: 'AGAINST' | 'INTERESTING') =>
      store.dispatch(communityApi.endpoints.vote.initiate({ ...reader('d1'), kind }));
    const first = vote('AGAINST');
    const second = vote('INTERESTING');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const [answerFirst, answerSecond] = held;
    const reply = (kind: 'AGAINST' | 'INTERESTING', upvotes: number) => ({
      data: {
        vote: {
          debateId: 'd1',
          ...counts(upvotes, 0, 0),
          myVote: kind,
          mindsChanged: { readers: 0, shares: null },
        },
      },
    });
    answerSecond?.(reply('INTERESTING', 7));
    await second.unwrap();
    answerFirst?.(reply('AGAINST', 5));
    await first.unwrap();
    expect(shown().d1).toMatchObject({ upvotes: 7, myVote: 'INTERESTING' });
  });
});

describe('a star', () => {
  it('shows on the ranking card at once, and goes back when refused', async () => {
    const { store, shown } = await cached();
    const starring = store.dispatch(
      communityApi.endpoints.toggleStar.initiate({ ...reader('d2'), starred: true }),
    );
    expect(shown().d2?.starred).toBe(true);
    answer({ errors: [{ message: 'The star could not be changed. Please try again.' }] });
    await expect(starring.unwrap()).rejects.toBeTruthy();
    expect(shown().d2?.starred).toBe(false);
  });
});
