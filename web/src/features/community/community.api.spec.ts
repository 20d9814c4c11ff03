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
/** Answers the request the gateway holds, with this body. */
let answer: (body: object) => void;

beforeEach(() => {
  globalThis.fetch = jest.fn<typeof fetch>(
    () =>
      new Promise<Response>((resolve) => {
        answer = (body) => resolve({ ok: true, status: 200, json: async () => body } as Response);
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
