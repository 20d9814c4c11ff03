import {
  communityDebateContracts,
  type SharedDebate,
  debateSharedEvent,
  debateUnsharedEvent,
  type VoteKind,
} from '@debate/contracts';
import { createClientProxy, JetStreamEventLog, natsTransport, ServiceClient } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MongoClient } from 'mongodb';
import { randomUUID } from 'node:crypto';
import { sharedDebateOf } from '@debate/testing';
import { graphql, type SignedUp, signUpThroughGateway } from './graphql-client.js';
import { type NatsTestPlatform, startTestPlatformOverNats } from './test-platform.js';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await probe();
  for (let attempt = 0; !done(value) && attempt < 100; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await probe();
  }
  return value;
}

// The community service over real NATS, fed by debates.debate.shared events on JetStream as
// the debates service publishes them.
describe('the community hub', () => {
  let running: NatsTestPlatform;
  let url: string;
  let community: ServiceClient;
  let events: JetStreamEventLog;
  let mongo: MongoClient;
  let ada: SignedUp;
  let bob: SignedUp;

  const share = async (debate: SharedDebate): Promise<void> => {
    await events.publish(debateSharedEvent, { debate }, `${debate.id}:${debate.sharedAt}`);
    await eventually(
      () =>
        community.request(communityDebateContracts.get, { debateId: debate.id, countView: false }),
      (reply) => reply.debate !== null,
    );
  };

  const ask = <T>(
    person: SignedUp | null,
    query: string,
    variables: Record<string, unknown> = {},
  ) =>
    graphql<T>(url, query, {
      variables,
      ...(person ? { headers: { authorization: `Bearer ${person.token}` } } : {}),
    });

  beforeAll(async () => {
    running = await startTestPlatformOverNats();
    url = running.platform.url;
    community = new ServiceClient(
      createClientProxy(natsTransport(running.natsUrl), { anonymous: 'community-test' }),
    );
    events = new JetStreamEventLog({ url: running.natsUrl }, { anonymous: 'community-test' });
    mongo = await MongoClient.connect(running.mongoUrl);
    ada = await signUpThroughGateway(url, 'ada@example.org');
    bob = await signUpThroughGateway(url, 'bob@example.org');
  }, 30_000);

  afterAll(async () => {
    await mongo?.close();
    await events?.close();
    await community?.close();
    await running?.teardown();
  });

  it('1,000 concurrent votes by 100 users on 5 debates leave counts equal to the final votes', async () => {
    const debates = ['v1', 'v2', 'v3', 'v4', 'v5'];
    for (const id of debates) await share(sharedDebateOf(id));
    const voters = Array.from({ length: 100 }, () => randomUUID());
    const kinds: Array<VoteKind | null> = ['FOR', 'AGAINST', 'INTERESTING', null];
    // Each voter casts, changes and removes votes on random debates, all at once.
    const casts = Array.from({ length: 1_000 }, (_, i) => ({
      voterId: voters[i % 100] ?? '',
      debateId: debates[Math.floor(Math.random() * 5)] ?? '',
      kind: kinds[Math.floor(Math.random() * 4)] ?? null,
    }));
    // All at once, queued behind one another on five documents: what is asserted is that every
    // vote is answered and counted, so the last answer may take longer than a request's usual 5 s
    // on a busy two-core machine (about 3 s idle there). How fast votes go: npm run bench:community.
    const replies = await Promise.all(
      casts.map((cast) =>
        community.request(communityDebateContracts.vote, cast, { timeoutMs: 30_000 }),
      ),
    );
    expect(replies.every((reply) => reply.found)).toBe(true);

    const stored = await mongo
      .db('community')
      .collection<{
        _id: string;
        votes: Record<string, VoteKind>;
        upvotes: number;
        downvotes: number;
        interesting: number;
        popularity: number;
      }>('public_debates')
      .find({ _id: { $in: debates } })
      .toArray();
    expect(stored).toHaveLength(5);
    for (const debate of stored) {
      const final = Object.values(debate.votes);
      const count = (kind: VoteKind) => final.filter((vote) => vote === kind).length;
      expect({
        id: debate._id,
        counts: [debate.upvotes, debate.downvotes, debate.interesting],
      }).toEqual({
        id: debate._id,
        counts: [count('FOR'), count('AGAINST'), count('INTERESTING')],
      });
      // The author's own For vote counts like any other.
      expect(final.length).toBeGreaterThan(0);
    }
    // A voter who voted once on a debate has exactly that vote.
    const single = new Map<string, VoteKind | null>();
    const seen = new Map<string, number>();
    for (const cast of casts) {
      const key = `${cast.debateId}|${cast.voterId}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      single.set(key, cast.kind);
    }
    for (const [key, times] of seen) {
      if (times !== 1) continue;
      const [debateId, voterId] = key.split('|') as [string, string];
      const debate = stored.find((candidate) => candidate._id === debateId);
      expect(debate?.votes[voterId] ?? null).toBe(single.get(key));
    }
  }, 60_000);

  it('ranks by Wilson, by recency and by controversy, in periods, pages and categories', async () => {
    const now = Date.now();
    // A viewer whose local time is about noon, so that 'today' reaches back hours, not minutes.
    const utcMinutes = new Date(now).getUTCHours() * 60 + new Date(now).getUTCMinutes();
    const utcOffsetMinutes = ((((720 - utcMinutes) % 1440) + 2160) % 1440) - 720;
    const at = (ago: number) => new Date(now - ago).toISOString();
    const fixtures = [
      { id: 'r-hour', sharedAt: at(HOUR), categories: ['Science' as const] },
      { id: 'r-3days', sharedAt: at(3 * DAY), categories: ['Science' as const, 'Ethics' as const] },
      { id: 'r-20days', sharedAt: at(20 * DAY), categories: ['Ethics' as const] },
      { id: 'r-90days', sharedAt: at(90 * DAY), categories: ['Funny' as const] },
    ];
    for (const fixture of fixtures) await share(sharedDebateOf(fixture.id, fixture));
    // r-3days: 8 For and 2 Against; r-20days: 5 and 5 (the most controversial); r-90days: 1 For.
    const votes: Array<[string, VoteKind, number]> = [
      ['r-3days', 'FOR', 7],
      ['r-3days', 'AGAINST', 2],
      ['r-20days', 'FOR', 4],
      ['r-20days', 'AGAINST', 5],
      ['r-hour', 'AGAINST', 3],
    ];
    for (const [debateId, kind, times] of votes) {
      for (let i = 0; i < times; i += 1) {
        await community.request(communityDebateContracts.vote, {
          voterId: randomUUID(),
          debateId,
          kind,
        });
      }
    }
    const rank = async (args: Record<string, unknown>) => {
      const reply = await community.request(communityDebateContracts.rank, {
        sort: 'recent',
        period: 'all',
        utcOffsetMinutes,
        starredOnly: false,
        limit: 50,
        ...args,
      });
      if ('invalid' in reply) throw new Error(reply.message);
      return reply;
    };
    const ids = async (args: Record<string, unknown>) =>
      (await rank(args)).debates.map((debate) => debate.id).filter((id) => id.startsWith('r-'));

    expect(await ids({ sort: 'recent' })).toEqual(['r-hour', 'r-3days', 'r-20days', 'r-90days']);
    // Wilson: 8/2 (0.49) > 5/5 (0.24) > 1/0 (0.21) > 1/3 (0.05).
    expect(await ids({ sort: 'popular' })).toEqual(['r-3days', 'r-20days', 'r-90days', 'r-hour']);
    // Controversy: 10^1 > 10^0.25 > 4^(1/3) > 0 for a one-sided debate.
    expect(await ids({ sort: 'controversial' })).toEqual([
      'r-20days',
      'r-3days',
      'r-hour',
      'r-90days',
    ]);
    expect(await ids({ period: 'today' })).toEqual(['r-hour']);
    expect(await ids({ period: 'week' })).toEqual(['r-hour', 'r-3days']);
    expect(await ids({ period: 'month', sort: 'popular' })).toEqual([
      'r-3days',
      'r-20days',
      'r-hour',
    ]);
    expect(await ids({ category: 'Ethics', sort: 'controversial' })).toEqual([
      'r-20days',
      'r-3days',
    ]);

    // Page by page, each debate exactly once, in the same order as one long page.
    for (const sort of ['popular', 'recent', 'controversial']) {
      const whole = (await rank({ sort })).debates.map((debate) => debate.id);
      const paged: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await rank({ sort, limit: 2, ...(after ? { after } : {}) });
        paged.push(...page.debates.map((debate) => debate.id));
        if (!page.next) break;
        after = page.next;
      }
      expect([sort, paged]).toEqual([sort, whole]);
    }
    expect(await rank({ after: 'bogus' }).catch((error: Error) => error.message)).toMatch(
      /Invalid cursor/,
    );
  }, 60_000);

  it('through GraphQL: votes, stars and rounds, for the signed-in and the signed-out', async () => {
    await share(sharedDebateOf('g1', { categories: ['Culture'] }));
    const VOTE =
      'mutation ($id: String!, $kind: VoteKind) { vote(debateId: $id, kind: $kind) { upvotes downvotes interesting myVote } }';
    const STAR = 'mutation ($id: String!) { toggleStar(debateId: $id) }';
    const CARDS =
      'query ($starredOnly: Boolean, $starredIds: [String!]) { communityDebates(category: "Culture", starredOnly: $starredOnly, starredIds: $starredIds) { debates { id upvotes downvotes interesting myVote starred } next } }';
    type Cards = {
      communityDebates: {
        debates: Array<{ id: string; myVote: string | null; starred: boolean; upvotes: number }>;
      };
    };

    const first = await ask<{ vote: unknown }>(ada, VOTE, { id: 'g1', kind: 'AGAINST' });
    expect(first.data?.vote).toEqual({
      upvotes: 1,
      downvotes: 1,
      interesting: 0,
      myVote: 'AGAINST',
    });
    const changed = await ask<{ vote: unknown }>(ada, VOTE, { id: 'g1', kind: 'INTERESTING' });
    expect(changed.data?.vote).toEqual({
      upvotes: 1,
      downvotes: 0,
      interesting: 1,
      myVote: 'INTERESTING',
    });
    const removed = await ask<{ vote: unknown }>(ada, VOTE, { id: 'g1', kind: null });
    expect(removed.data?.vote).toEqual({ upvotes: 1, downvotes: 0, interesting: 0, myVote: null });
    await ask(ada, VOTE, { id: 'g1', kind: 'FOR' });

    expect((await ask<{ toggleStar: boolean }>(ada, STAR, { id: 'g1' })).data?.toggleStar).toBe(
      true,
    );
    const adaView = await ask<Cards>(ada, CARDS, { starredOnly: true });
    expect(adaView.data?.communityDebates.debates).toEqual([
      { id: 'g1', upvotes: 2, downvotes: 0, interesting: 0, myVote: 'FOR', starred: true },
    ]);
    // Bob sees the counts, not Ada's vote or star; his Starred view is empty.
    const bobView = await ask<Cards>(bob, CARDS, { starredOnly: false });
    expect(bobView.data?.communityDebates.debates[0]).toMatchObject({
      myVote: null,
      starred: false,
    });
    expect(
      (await ask<Cards>(bob, CARDS, { starredOnly: true })).data?.communityDebates.debates,
    ).toEqual([]);
    // A visitor's stars live in the browser, and join the account at sign-in.
    const visitor = await ask<Cards>(null, CARDS, { starredOnly: true, starredIds: ['g1'] });
    expect(visitor.data?.communityDebates.debates.map((debate) => debate.starred)).toEqual([true]);
    const merged = await ask<{ mergeStars: string[] }>(
      bob,
      'mutation ($ids: [String!]!) { mergeStars(debateIds: $ids) }',
      { ids: ['g1', 'no-such-debate'] },
    );
    expect(merged.data?.mergeStars).toEqual(['g1']);
    expect((await ask<{ toggleStar: boolean }>(ada, STAR, { id: 'g1' })).data?.toggleStar).toBe(
      false,
    );

    // The rounds, on demand, each reading counting a view.
    const ROUNDS =
      'query ($id: String!) { communityDebate(id: $id) { topic views rounds { speaker round summary } } }';
    const read = await ask<{ communityDebate: { views: number; rounds: unknown[] } }>(
      null,
      ROUNDS,
      {
        id: 'g1',
      },
    );
    expect(read.data?.communityDebate.rounds).toHaveLength(6);
    const again = await ask<{ communityDebate: { views: number } }>(bob, ROUNDS, { id: 'g1' });
    expect(again.data?.communityDebate.views).toBe((read.data?.communityDebate.views ?? 0) + 1);
  }, 30_000);

  it('refuses the signed-out, unknown debates and bad input, changing nothing', async () => {
    await share(sharedDebateOf('b1'));
    const VOTE = 'mutation ($id: String!) { vote(debateId: $id, kind: FOR) { upvotes } }';
    for (const [query, variables] of [
      [VOTE, { id: 'b1' }],
      ['mutation { toggleStar(debateId: "b1") }', {}],
      ['mutation { mergeStars(debateIds: ["b1"]) }', {}],
    ] as const) {
      const anonymous = await ask(null, query, variables);
      expect([query, anonymous.errors?.[0]?.message]).toEqual([query, 'Sign in required']);
    }
    const missing = await ask(ada, VOTE, { id: 'no-such-debate' });
    expect(missing.errors?.[0]?.extensions?.['code']).toBe('NOT_FOUND');
    const code = async (query: string, variables: Record<string, unknown> = {}) =>
      (await ask(ada, query, variables)).errors?.[0]?.extensions?.['code'];
    expect(await code('{ communityDebates(category: "Gardening") { next } }')).toBe(
      'BAD_USER_INPUT',
    );
    expect(await code('{ communityDebates(after: "bogus") { next } }')).toBe('BAD_USER_INPUT');
    expect(await code('{ communityDebates(limit: 500) { next } }')).toBe('BAD_USER_INPUT');
    expect(await code('{ communityDebates(utcOffsetMinutes: 10000) { next } }')).toBe(
      'BAD_USER_INPUT',
    );
    expect(
      await code('query ($ids: [String!]) { communityDebates(starredIds: $ids) { next } }', {
        ids: [],
      }),
    ).toBeUndefined();
    expect(
      await code('mutation ($ids: [String!]!) { mergeStars(debateIds: $ids) }', {
        ids: Array.from({ length: 501 }, (_, i) => `d${i}`),
      }),
    ).toBe('BAD_USER_INPUT');
    const unknownKind = await ask(
      ada,
      'mutation { vote(debateId: "b1", kind: MAYBE) { upvotes } }',
    );
    expect(unknownKind.errors?.[0]?.message).toMatch(/MAYBE/);
    expect(
      await code(`mutation { vote(debateId: "${'x'.repeat(129)}", kind: FOR) { upvotes } }`),
    ).toBe('BAD_USER_INPUT');
    const { debate } = await community.request(communityDebateContracts.get, {
      debateId: 'b1',
      countView: false,
    });
    expect(debate).toMatchObject({ upvotes: 1, downvotes: 0, interesting: 0, views: 0 });

    // Unshared: gone from the hub, and no longer votable.
    await events.publish(
      debateUnsharedEvent,
      { debateId: 'b1', at: new Date().toISOString() },
      'b1:gone',
    );
    await eventually(
      () => community.request(communityDebateContracts.get, { debateId: 'b1', countView: false }),
      (reply) => reply.debate === null,
    );
    expect((await ask(ada, VOTE, { id: 'b1' })).errors?.[0]?.extensions?.['code']).toBe(
      'NOT_FOUND',
    );
  }, 30_000);

  it('asks where a reader stands through GraphQL: signed in, once, and bad input changes nothing', async () => {
    await share(sharedDebateOf('s1', { categories: ['Ethics'] }));
    const STAND =
      'mutation ($id: String!, $stance: StanceBefore) { standBefore(debateId: $id, stance: $stance) { debateId standBefore mindsChanged { readers shares { winner } } } }';
    const PAGE =
      'query ($id: String!) { communityDebate(id: $id) { askBefore standBefore myVote mindsChanged { readers } } }';
    type Page = { communityDebate: { askBefore: boolean; standBefore: string | null } };

    // Signed out: asked nothing, allowed nothing.
    expect((await ask<Page>(null, PAGE, { id: 's1' })).data?.communityDebate).toEqual({
      askBefore: false,
      standBefore: null,
      myVote: null,
      mindsChanged: { readers: 0 },
    });
    expect((await ask(null, STAND, { id: 's1', stance: 'FOR' })).errors?.[0]?.message).toBe(
      'Sign in required',
    );
    // A stance the API does not know, and a debate that does not exist: refused, nothing stored.
    const unknown = await ask(bob, STAND, { id: 's1', stance: 'MAYBE' });
    expect(unknown.data ?? null).toBeNull();
    expect(unknown.errors?.[0]?.message).toMatch(
      /invalid value "MAYBE"; Expected type StanceBefore/,
    );
    expect(
      (await ask(bob, STAND, { id: 'no-such-debate', stance: 'FOR' })).errors?.[0]?.extensions?.[
        'code'
      ],
    ).toBe('NOT_FOUND');
    expect((await ask<Page>(bob, PAGE, { id: 's1' })).data?.communityDebate.askBefore).toBe(true);

    const answered = await ask<{ standBefore: unknown }>(bob, STAND, {
      id: 's1',
      stance: 'AGAINST',
    });
    expect(answered.data?.standBefore).toEqual({
      debateId: 's1',
      standBefore: 'AGAINST',
      mindsChanged: { readers: 0, shares: null },
    });
    // Once: a second answer is refused with the reason, the first stands.
    const again = await ask(bob, STAND, { id: 's1', stance: 'FOR' });
    expect(again.errors?.[0]).toMatchObject({
      message: 'Where you stood before reading this debate is already recorded, or was skipped.',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect((await ask<Page>(bob, PAGE, { id: 's1' })).data?.communityDebate).toMatchObject({
      askBefore: false,
      standBefore: 'AGAINST',
    });
    // Their vote after reading counts them in minds changed.
    const voted = await ask<{ vote: { mindsChanged: { readers: number } } }>(
      bob,
      'mutation ($id: String!) { vote(debateId: $id, kind: FOR) { mindsChanged { readers } } }',
      { id: 's1' },
    );
    expect(voted.data?.vote.mindsChanged.readers).toBe(1);
  });
});
