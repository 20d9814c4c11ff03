import {
  communityDebateContracts,
  debatesContracts,
  eventStreams,
  subjects,
} from '@debate/contracts';
import { createClientProxy, natsTransport, ServiceClient } from '@debate/nest';
import { DiscardPolicy, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MongoClient } from 'mongodb';
import {
  collectSubscription,
  graphql,
  type SignedUp,
  signUpThroughGateway,
} from './graphql-client.js';
import { eventually } from '@debate/testing';
import { settingsOf } from './fixtures.js';
import { type NatsTestPlatform, startTestPlatformOverNats } from './test-platform.js';
import { signUpVerified } from './verified-account.js';

const START = 'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }';
const WATCH = 'subscription ($id: String!) { debateRun(id: $id) { type } }';

type Person = SignedUp;

// The debates service over real NATS: a user's debates are theirs alone.
describe('saved debates', () => {
  let running: NatsTestPlatform;
  let natsUrl: string;
  let url: string;
  let debates: ServiceClient;
  let ada: Person;
  let eve: Person;

  const signUp = (email: string): Promise<Person> => signUpThroughGateway(url, email);

  /** Generates a debate for `person` and waits until it is complete; returns the run id. */
  const generate = async (person: Person, topic: string): Promise<string> => {
    const started = await graphql<{ startDebate: string }>(url, START, {
      headers: { authorization: `Bearer ${person.token}` },
      variables: { settings: settingsOf(topic) },
    });
    const runId = started.data?.startDebate ?? '';
    await collectSubscription(url, WATCH, 10_000, {
      accessToken: person.token,
      variables: { id: runId },
    });
    return runId;
  };

  beforeAll(async () => {
    running = await startTestPlatformOverNats({
      speakers: { OFFLINE_TOKENS_PER_SECOND: 0, OFFLINE_FIRST_TOKEN_MS: 0, TURN_PAUSE_MS: 0 },
      testAccountEmail: 'ada@example.org',
    });
    url = running.platform.url;
    natsUrl = running.natsUrl;
    debates = new ServiceClient(
      createClientProxy(natsTransport(natsUrl), { anonymous: 'debates-test' }),
    );
    // The designated test account: its address verified.
    ada = await signUpVerified(running, 'ada@example.org');
    eve = await signUp('eve@example.org');
  }, 30_000);

  afterAll(async () => {
    await debates?.close();
    await running?.teardown();
  });

  it("saves a completed run once, with the speakers' rounds, private", async () => {
    const runId = await generate(ada, 'Should cities ban cars?');
    const saved = await debates.request(debatesContracts.save, {
      userId: ada.id,
      userDisplayName: null,
      isPro: false,
      runId,
      categories: ['Politics', 'Environment'],
    });
    if (!saved.saved) throw new Error(saved.message);
    expect(saved.debate).toMatchObject({
      id: runId,
      userDisplayName: 'Anonymous User',
      topic: 'Should cities ban cars?',
      categories: ['Politics', 'Environment'],
      isPublic: false,
      sharedAt: null,
      views: 0,
      upvotes: 0,
      downvotes: 0,
      model1: {
        name: 'offline',
        stance: 0.6,
        rhetoricStyle: 'formal',
        writtenBy: { kind: 'offline', label: 'Offline speaker', turns: 3, failedTurns: 0 },
      },
      model2: {
        name: 'offline',
        stance: -0.6,
        rhetoricStyle: 'casual',
        writtenBy: { kind: 'offline', label: 'Offline speaker', turns: 3, failedTurns: 0 },
      },
    });
    // The moderator's opening and closing are not rounds.
    expect(saved.debate.rounds.map((round) => `${round.speaker} ${round.round}`)).toEqual([
      'First Speaker 1',
      'Second Speaker 1',
      'First Speaker 2',
      'Second Speaker 2',
      'First Speaker 3',
      'Second Speaker 3',
    ]);
    const again = await debates.request(debatesContracts.save, {
      userId: ada.id,
      userDisplayName: 'Ada',
      isPro: false,
      runId,
      categories: ['Politics'],
    });
    expect(again).toMatchObject({ saved: false, reason: 'already_saved' });
    // Someone else's run cannot be saved as one's own.
    const stolen = await debates.request(debatesContracts.save, {
      userId: eve.id,
      userDisplayName: 'Eve',
      isPro: false,
      runId,
      categories: ['Politics'],
    });
    expect(stolen).toMatchObject({ saved: false, reason: 'run_not_found' });
  }, 30_000);

  it("never lets another user read, share, unshare or delete someone's debate", async () => {
    const { debates: mine } = await debates.request(debatesContracts.list, {
      userId: ada.id,
      order: 'newest',
      limit: 10,
    });
    const debateId = mine[0]?.id ?? '';
    const asEve = { userId: eve.id, debateId };
    expect(await debates.request(debatesContracts.get, asEve)).toEqual({ debate: null });
    expect(await debates.request(debatesContracts.share, asEve)).toEqual({ debate: null });
    expect(await debates.request(debatesContracts.unshare, asEve)).toEqual({ debate: null });
    expect(await debates.request(debatesContracts.delete, asEve)).toEqual({ deleted: false });
    const { debate } = await debates.request(debatesContracts.get, { userId: ada.id, debateId });
    expect(debate).toMatchObject({ id: debateId, isPublic: false });
    const eves = await debates.request(debatesContracts.list, {
      userId: eve.id,
      order: 'newest',
      limit: 10,
    });
    expect(eves.total).toBe(0);
  });

  it('lists by topic text (taken literally), category and time, a page at a time', async () => {
    for (const [topic, category] of [
      ['Is C++ better than Rust?', 'Technology'],
      ['Should (a+b) be taught early?', 'Science'],
      ['Does art need an audience?', 'Culture'],
    ] as const) {
      const runId = await generate(ada, topic);
      await debates.request(debatesContracts.save, {
        userId: ada.id,
        userDisplayName: 'Ada',
        isPro: false,
        runId,
        categories: [category],
      });
    }
    const search = (text: string) =>
      debates.request(debatesContracts.list, {
        userId: ada.id,
        search: text,
        order: 'newest',
        limit: 10,
      });
    expect((await search('c++')).debates.map((debate) => debate.topic)).toEqual([
      'Is C++ better than Rust?',
    ]);
    expect((await search('(a+b)')).total).toBe(1);
    expect((await search('.*')).total).toBe(0);
    const science = await debates.request(debatesContracts.list, {
      userId: ada.id,
      category: 'Science',
      order: 'newest',
      limit: 10,
    });
    expect(science.debates.map((debate) => debate.topic)).toEqual([
      'Should (a+b) be taught early?',
    ]);

    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await debates.request(debatesContracts.list, {
        userId: ada.id,
        order: 'oldest',
        limit: 3,
        ...(after ? { after } : {}),
      });
      expect(page.total).toBe(4);
      seen.push(...page.debates.map((debate) => debate.topic));
      if (!page.next) break;
      after = page.next;
    }
    expect(seen).toEqual([
      'Should cities ban cars?',
      'Is C++ better than Rust?',
      'Should (a+b) be taught early?',
      'Does art need an audience?',
    ]);
  }, 60_000);

  it('shares once on JetStream however often it is asked, and unshares on delete', async () => {
    const { debates: mine } = await debates.request(debatesContracts.list, {
      userId: ada.id,
      order: 'oldest',
      limit: 1,
    });
    const debateId = mine[0]?.id ?? '';
    const shares = await Promise.all(
      Array.from({ length: 5 }, () =>
        debates.request(debatesContracts.share, { userId: ada.id, debateId }),
      ),
    );
    expect(shares.every((share) => share.debate?.isPublic)).toBe(true);
    expect(await debates.request(debatesContracts.delete, { userId: ada.id, debateId })).toEqual({
      deleted: true,
    });
    const nc = await connect({ servers: natsUrl });
    try {
      const jsm = await jetstreamManager(nc);
      const stream = eventStreams.debates.name;
      const shared = await jsm.streams.getMessage(stream, {
        last_by_subj: subjects.debates.debate.shared,
      });
      expect(shared?.json()).toMatchObject({ debate: { id: debateId, isPublic: true } });
      const info = await jsm.streams.info(stream, { subjects_filter: '>' });
      expect(info.state.subjects).toEqual({
        [subjects.debates.debate.shared]: 1,
        [subjects.debates.debate.unshared]: 1,
      });
    } finally {
      await nc.close();
    }
    expect(await debates.request(debatesContracts.get, { userId: ada.id, debateId })).toEqual({
      debate: null,
    });
  });

  it('through GraphQL: owner only, signed in only, and bad input changes nothing', async () => {
    const runId = await generate(ada, 'Is remote work here to stay?');
    const ask = (person: Person | null, query: string, variables: Record<string, unknown>) =>
      graphql<Record<string, { id?: string; total?: number } | boolean>>(url, query, {
        variables,
        ...(person ? { headers: { authorization: `Bearer ${person.token}` } } : {}),
      });
    const SAVE =
      'mutation ($runId: String!, $c: [String!]!) { saveDebate(runId: $runId, categories: $c) { id isPublic } }';
    const TOTAL = '{ myDebates { total } }';
    const totalOf = async (person: Person) =>
      ((await ask(person, TOTAL, {})).data?.['myDebates'] as { total: number }).total;
    const before = await totalOf(ada);

    for (const categories of [
      ['Politics', 'Science', 'Ethics', 'Culture'],
      ['Gardening'],
      [],
      ['Science', 'Science'],
    ]) {
      const refused = await ask(ada, SAVE, { runId, c: categories });
      expect(refused.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    }
    const long = await ask(ada, '{ myDebates(search: "' + 'x'.repeat(201) + '") { total } }', {});
    expect(long.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(await totalOf(ada)).toBe(before);

    const saved = await ask(ada, SAVE, { runId, c: ['Society'] });
    const id = (saved.data?.['saveDebate'] as { id: string }).id;
    expect(await totalOf(ada)).toBe(before + 1);

    const operations: Array<[string, string]> = [
      ['myDebate', 'query ($id: String!) { myDebate(id: $id) { id } }'],
      ['shareDebate', 'mutation ($id: String!) { shareDebate(id: $id) { id } }'],
      ['unshareDebate', 'mutation ($id: String!) { unshareDebate(id: $id) { id } }'],
      ['deleteDebate', 'mutation ($id: String!) { deleteDebate(id: $id) }'],
    ];
    for (const [name, query] of operations) {
      const anonymous = await ask(null, query, { id });
      expect([name, anonymous.errors?.[0]?.message]).toEqual([name, 'Sign in required']);
      const other = await ask(eve, query, { id });
      expect([name, other.errors?.[0]?.extensions?.['code']]).toEqual([name, 'NOT_FOUND']);
    }
    const mine = await ask(ada, operations[0]?.[1] ?? '', { id });
    expect(mine.data?.['myDebate']).toEqual({ id });
    expect(await totalOf(ada)).toBe(before + 1);
  }, 30_000);

  it('a rematch: the same motion, format and sides, the models swapped, saved and shown as a pair', async () => {
    const ask = <T>(person: Person | null, query: string, variables: Record<string, unknown>) =>
      graphql<T>(url, query, {
        variables,
        ...(person ? { headers: { authorization: `Bearer ${person.token}` } } : {}),
      });
    const SAVE =
      'mutation ($runId: String!) { saveDebate(runId: $runId, categories: ["Science"]) { id } }';
    const REMATCH = 'mutation ($id: String!) { startRematch(debateId: $id) }';
    const SHARE = 'mutation ($id: String!) { shareDebate(id: $id) { id } }';
    // Someone new: two free debates, the first and its rematch (the starts-per-minute limit
    // is Ada's to spend in this file).
    const rex = await signUp('rex@example.org');
    const started = await ask<{ startDebate: string }>(rex, START, {
      settings: settingsOf('Should the voting age be 16?', {
        debateFormat: 'oxford',
        moderatorEnabled: false,
        first: { model: 'offline', stance: 0.8, rhetoricStyle: 'factual', personality: 'a judge' },
        second: { model: 'offline', stance: -0.4, rhetoricStyle: 'emotional', personality: '' },
      }),
    });
    expect(started.errors).toBeUndefined();
    const firstRun = started.data?.startDebate ?? '';
    await collectSubscription(url, WATCH, 10_000, {
      accessToken: rex.token,
      variables: { id: firstRun },
    });
    await ask(rex, SAVE, { runId: firstRun });

    // Only the owner, signed in, of a debate that exists; nothing is started otherwise.
    expect((await ask(null, REMATCH, { id: firstRun })).errors?.[0]?.message).toBe(
      'Sign in required',
    );
    expect((await ask(eve, REMATCH, { id: firstRun })).errors?.[0]?.extensions?.['code']).toBe(
      'NOT_FOUND',
    );
    expect((await ask(rex, REMATCH, { id: '' })).errors?.[0]?.extensions?.['code']).toBe(
      'BAD_USER_INPUT',
    );

    const rematch = await ask<{ startRematch: string }>(rex, REMATCH, { id: firstRun });
    expect(rematch.errors).toBeUndefined();
    const rematchRun = rematch.data?.startRematch ?? '';
    expect(rematchRun).not.toBe('');
    await collectSubscription(url, WATCH, 10_000, {
      accessToken: rex.token,
      variables: { id: rematchRun },
    });
    await ask(rex, SAVE, { runId: rematchRun });
    const [first, second] = await Promise.all(
      [firstRun, rematchRun].map(async (debateId) => {
        const { debate } = await debates.request(debatesContracts.get, {
          userId: rex.id,
          debateId,
        });
        return debate;
      }),
    );
    expect(second).toMatchObject({
      topic: 'Should the voting age be 16?',
      debateFormat: 'oxford',
      moderatorEnabled: false,
      rematchOf: firstRun,
      // Each side keeps its stance and style; the model that wrote it is the other side's.
      model1: { name: first?.model2.name, stance: 0.8, rhetoricStyle: 'factual' },
      model2: { name: first?.model1.name, stance: -0.4, rhetoricStyle: 'emotional' },
    });
    expect(second?.verdict).not.toBeNull();
    expect(first?.rematchOf).toBeNull();

    // Shared, each page shows the other as its pair.
    await ask(rex, SHARE, { id: firstRun });
    await ask(rex, SHARE, { id: rematchRun });
    const PAIR =
      'query ($id: String!) { communityDebate(id: $id) { pairedWith { id isRematch } } }';
    const pairOf = async (id: string) =>
      (await ask<{ communityDebate: { pairedWith: unknown } }>(null, PAIR, { id })).data
        ?.communityDebate.pairedWith;
    await eventually(
      () => pairOf(firstRun),
      (pair) => pair !== null && pair !== undefined,
    );
    expect(await pairOf(firstRun)).toEqual({ id: rematchRun, isRematch: true });
    expect(await pairOf(rematchRun)).toEqual({ id: firstRun, isRematch: false });
  }, 60_000);

  it("keeps the user's last debate, not saved, to be shown again until it is saved, through a restart of its generation instance", async () => {
    const una = await signUp('una@example.org');
    const UNSAVED = '{ unsavedDebate { runId topic rounds { round speaker } verdict { tie } } }';
    type Unsaved = {
      runId: string;
      topic: string;
      rounds: { round: number; speaker: string }[];
      verdict: { tie: boolean } | null;
    };
    const unsavedOf = async (person: Person | null) =>
      graphql<{ unsavedDebate: Unsaved | null }>(url, UNSAVED, {
        ...(person ? { headers: { authorization: `Bearer ${person.token}` } } : {}),
      });
    expect((await unsavedOf(una)).data?.unsavedDebate).toBeNull();
    const runId = await generate(una, 'Should libraries lend tools?');
    const shown = await eventually(
      () => unsavedOf(una),
      (answer) => answer.data?.unsavedDebate !== null,
    );
    expect(shown.data?.unsavedDebate).toMatchObject({
      runId,
      topic: 'Should libraries lend tools?',
    });
    expect(shown.data?.unsavedDebate?.rounds).toHaveLength(6);
    expect(shown.data?.unsavedDebate?.verdict).not.toBeNull();
    // The instance that ran it restarts, and with it every run it had: the debate is still there.
    await running.platform.stopService('generation');
    await running.platform.startService('generation');
    expect((await unsavedOf(una)).data?.unsavedDebate).toEqual(shown.data?.unsavedDebate);
    // Nobody else's, and not signed out.
    expect((await unsavedOf(eve)).data?.unsavedDebate).toBeNull();
    expect((await unsavedOf(null)).errors?.[0]?.message).toBe('Sign in required');
    // Saved, it is no longer the engine's to show.
    const saved = await graphql<{ saveDebate: { id: string } }>(
      url,
      'mutation ($runId: String!) { saveDebate(runId: $runId, categories: ["Science"]) { id } }',
      { headers: { authorization: `Bearer ${una.token}` }, variables: { runId } },
    );
    expect(saved.data?.saveDebate.id).toBe(runId);
    expect((await unsavedOf(una)).data?.unsavedDebate).toBeNull();
  });

  it("a PRO user's account says so, and their debate is stored PRO, its public copy too", async () => {
    const pat = await signUp('pat@example.org');
    const auth = { authorization: `Bearer ${pat.token}` };
    const store = await MongoClient.connect(running.mongoUrl);
    const planOf = (database: string, collection: string, id: string) =>
      store
        .db(database)
        .collection<{ _id: string; isPro?: boolean }>(collection)
        .findOne({ _id: id })
        .then((found) => found?.isPro);
    try {
      // PRO is not on sale: what makes a user PRO is their user document saying so.
      await store
        .db('identity')
        .collection<{ _id: string; isPro: boolean }>('users')
        .updateOne({ _id: pat.id }, { $set: { isPro: true } });
      const me = await graphql<{ me: { isPro: boolean } }>(url, '{ me { isPro } }', {
        headers: auth,
      });
      expect(me.data?.me).toEqual({ isPro: true });

      const runId = await generate(pat, 'Should chess be an Olympic sport?');
      const saved = await graphql<{ saveDebate: { id: string } }>(
        url,
        'mutation ($runId: String!) { saveDebate(runId: $runId, categories: ["Culture"]) { id } }',
        { headers: auth, variables: { runId } },
      );
      expect(saved.data?.saveDebate.id).toBe(runId);
      expect(await planOf('debates', 'debates', runId)).toBe(true);
      await graphql(url, 'mutation ($id: String!) { shareDebate(id: $id) { id } }', {
        headers: auth,
        variables: { id: runId },
      });
      expect(
        await eventually(
          () => planOf('community', 'public_debates', runId),
          (isPro) => isPro !== undefined,
        ),
      ).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('a share the event log refused reaches the community once the log takes events again', async () => {
    const gus = await signUp('gus@example.org');
    const runId = await generate(gus, 'Should voting be compulsory?');
    await debates.request(debatesContracts.save, {
      userId: gus.id,
      userDisplayName: 'Gus',
      isPro: false,
      runId,
      categories: ['Politics'],
    });
    const nc = await connect({ servers: natsUrl });
    const community = new ServiceClient(
      createClientProxy(natsTransport(natsUrl), { anonymous: 'community-outbox-test' }),
    );
    const publicCopy = async () =>
      (await community.request(communityDebateContracts.get, { debateId: runId, countView: false }))
        .debate;
    const waitFor = async (wanted: (copy: unknown) => boolean, limitMs: number) => {
      const deadline = Date.now() + limitMs;
      let copy = await publicCopy();
      while (!wanted(copy) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        copy = await publicCopy();
      }
      return copy;
    };
    const jsm = await jetstreamManager(nc);
    const stream = eventStreams.debates.name;
    // The log refuses every new event (a full stream that discards new ones), while the
    // services still answer requests over the same NATS.
    const refuseEvents = async (refuse: boolean) => {
      const info = await jsm.streams.info(stream);
      await jsm.streams.update(stream, {
        ...info.config,
        discard: refuse ? DiscardPolicy.New : DiscardPolicy.Old,
        max_msgs: refuse ? info.state.messages : -1,
      });
    };
    try {
      await refuseEvents(true);
      const { debate } = await debates.request(debatesContracts.share, {
        userId: gus.id,
        debateId: runId,
      });
      // The share stands: the owner sees it shared, though the community cannot have it yet.
      expect(debate).toMatchObject({ id: runId, isPublic: true });
      expect(
        (await debates.request(debatesContracts.get, { userId: gus.id, debateId: runId })).debate,
      ).toMatchObject({ isPublic: true, sharedAt: debate?.sharedAt });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await publicCopy()).toBeNull();

      await refuseEvents(false);
      // The outbox sweep (every 5 s) announces it.
      expect(await waitFor((copy) => copy !== null, 15_000)).toMatchObject({
        id: runId,
        sharedAt: debate?.sharedAt,
        userDisplayName: 'Gus',
      });

      // Deleting it while the log refuses: gone from the history at once, from the community
      // once the log is back.
      await refuseEvents(true);
      expect(
        await debates.request(debatesContracts.delete, { userId: gus.id, debateId: runId }),
      ).toEqual({ deleted: true });
      expect(
        await debates.request(debatesContracts.get, { userId: gus.id, debateId: runId }),
      ).toEqual({ debate: null });
      const { debates: listed } = await debates.request(debatesContracts.list, {
        userId: gus.id,
        order: 'newest',
        limit: 10,
      });
      expect(listed.map((listedDebate) => listedDebate.id)).not.toContain(runId);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await publicCopy()).not.toBeNull();
      await refuseEvents(false);
      expect(await waitFor((copy) => copy === null, 15_000)).toBeNull();
    } finally {
      await refuseEvents(false).catch(() => undefined);
      await community.close();
      await nc.close();
    }
  }, 60_000);

  it('a debate shared while the community service is down appears when it is back', async () => {
    // Someone new: the others have used up their debates for this minute (the rate limit).
    const fay = await signUp('fay@example.org');
    const runId = await generate(fay, 'Should museums return looted art?');
    await debates.request(debatesContracts.save, {
      userId: fay.id,
      userDisplayName: 'Fay',
      isPro: false,
      runId,
      categories: ['Culture'],
    });
    await running.platform.stopService('community');
    const { debate } = await debates.request(debatesContracts.share, {
      userId: fay.id,
      debateId: runId,
    });
    await running.platform.startService('community');
    const community = new ServiceClient(
      createClientProxy(natsTransport(natsUrl), { anonymous: 'community-test' }),
    );
    const publicCopy = async () =>
      (await community.request(communityDebateContracts.get, { debateId: runId, countView: false }))
        .debate;
    try {
      let copy = await publicCopy();
      for (let attempt = 0; !copy && attempt < 100; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        copy = await publicCopy();
      }
      expect(copy).toMatchObject({
        id: runId,
        topic: 'Should museums return looted art?',
        isPublic: true,
        sharedAt: debate?.sharedAt,
        upvotes: 1,
        downvotes: 0,
        interesting: 0,
        views: 0,
        userDisplayName: 'Fay',
      });
      await debates.request(debatesContracts.unshare, { userId: fay.id, debateId: runId });
      for (let attempt = 0; copy && attempt < 100; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        copy = await publicCopy();
      }
      expect(copy).toBeNull();
    } finally {
      await community.close();
    }
  }, 60_000);
});
