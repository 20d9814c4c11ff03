import { type FakeOpenAi, startFakeOpenAi } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { collectSubscription, graphql, signUpThroughGateway } from './graphql-client.js';
import {
  type NatsTestPlatform,
  startGatewayProcess,
  startTestPlatformOverNats,
  type TestPlatform,
} from './test-platform.js';
import { signUpVerified } from './verified-account.js';

const START = 'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }';
const USAGE = '{ usage { freeDebatesRemaining totalDebates lastDebateStarted memberSince } }';
const WATCH = `subscription ($id: String!) { debateRun(id: $id) {
  type seq firstModel { id label kind } secondModel { id label kind }
  turn speaker round roundTitle text summary failed message writtenBy { modelId label } } }`;

interface RunEvent {
  type: string;
  seq: number;
  firstModel: { id: string; label: string; kind: string } | null;
  secondModel: { id: string; label: string; kind: string } | null;
  turn: number | null;
  speaker: string | null;
  round: number | null;
  text: string | null;
  summary: string | null;
  failed: boolean | null;
  message: string | null;
  writtenBy: { modelId: string; label: string } | null;
}

const settings = (topic = 'Should cities ban cars?', models = ['offline', 'offline']) => ({
  topic,
  debateFormat: 'structured',
  moderatorEnabled: false,
  first: { model: models[0], stance: 0.6, rhetoricStyle: 'formal', personality: '' },
  second: { model: models[1], stance: -0.6, rhetoricStyle: 'casual', personality: '' },
});

const signUp = async (url: string, email: string): Promise<string> =>
  (await signUpThroughGateway(url, email)).token;

/** All the events of a run, through the GraphQL subscription, until it ends. */
async function watch(url: string, token: string, id: string): Promise<RunEvent[]> {
  const items = await collectSubscription<{ debateRun: RunEvent }>(url, WATCH, 100_000, {
    accessToken: token,
    variables: { id },
  });
  return items.map((item) => item.debateRun);
}

// Debates through the gateway, the services as separate applications over real NATS.
describe('generating debates', () => {
  let running: NatsTestPlatform;
  let url: string;

  beforeAll(async () => {
    running = await startTestPlatformOverNats({
      speakers: { OFFLINE_TOKENS_PER_SECOND: 0, OFFLINE_FIRST_TOKEN_MS: 0, TURN_PAUSE_MS: 0 },
      // 100 debates a day: only the per-minute limit refuses it.
      testAccountEmail: 'tester@example.org',
    });
    url = running.platform.url;
  }, 30_000);

  afterAll(async () => {
    await running?.teardown();
  });

  it('streams a whole debate to its owner, and counts it', async () => {
    const token = await signUp(url, 'ada@example.org');
    const auth = { authorization: `Bearer ${token}` };
    const before = await graphql<{ usage: { freeDebatesRemaining: number } }>(url, USAGE, {
      headers: auth,
    });
    expect(before.data?.usage.freeDebatesRemaining).toBe(2);

    const started = await graphql<{ startDebate: string }>(url, START, {
      headers: auth,
      variables: { settings: settings() },
    });
    expect(started.errors).toBeUndefined();
    const events = await watch(url, token, started.data?.startDebate ?? '');
    const offline = { id: 'offline', label: 'Offline speaker', kind: 'offline' };
    expect(events[0]).toMatchObject({
      type: 'runStarted',
      seq: 0,
      firstModel: offline,
      secondModel: offline,
    });
    expect(events.at(-1)?.type).toBe('runCompleted');
    const turns = events.filter((event) => event.type === 'turnCompleted');
    expect(turns.map((turn) => `${turn.speaker} ${turn.round}`)).toEqual([
      'First Speaker 1',
      'Second Speaker 1',
      'First Speaker 2',
      'Second Speaker 2',
      'First Speaker 3',
      'Second Speaker 3',
    ]);
    // A watcher that arrives after a turn ended gets it whole; pieces it did see add up to it.
    for (const turn of turns) {
      expect(turn.text?.length).toBeGreaterThan(50);
      expect(turn.writtenBy).toEqual({ modelId: 'offline', label: 'Offline speaker' });
      const pieces = events.filter(
        (event) => event.type === 'textDelta' && event.turn === turn.turn,
      );
      if (pieces.length > 0) expect(pieces.map((piece) => piece.text).join('')).toBe(turn.text);
    }

    const after = await graphql<{ usage: { freeDebatesRemaining: number; totalDebates: number } }>(
      url,
      USAGE,
      { headers: auth },
    );
    expect(after.data?.usage).toMatchObject({ freeDebatesRemaining: 1, totalDebates: 1 });

    // Someone else cannot watch it.
    const other = await signUp(url, 'eve@example.org');
    await expect(watch(url, other, started.data?.startDebate ?? '')).rejects.toThrow(
      /No such debate run/,
    );
  }, 30_000);

  it('starts exactly 2 of 50 parallel debates of a new user', async () => {
    const token = await signUp(url, 'bo@example.org');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        graphql<{ startDebate: string }>(url, START, {
          headers: { authorization: `Bearer ${token}` },
          variables: { settings: settings() },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.data?.startDebate)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.errors);
    expect(refused).toHaveLength(48);
    for (const answer of refused) {
      expect(answer.errors?.[0]).toMatchObject({
        message:
          'No free debates left. Next free debate within 7 days or consider supporting us by purchasing a PRO account',
        extensions: { code: 'NO_FREE_DEBATES' },
      });
    }
    const usage = await graphql<{ usage: { freeDebatesRemaining: number } }>(url, USAGE, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(usage.data?.usage.freeDebatesRemaining).toBe(0);
  }, 30_000);

  it('lets a user start 5 debates a minute across two gateways, however they arrive', async () => {
    // A second gateway replica, a process of its own on the same NATS.
    const second = await startGatewayProcess(running);
    try {
      const { token } = await signUpVerified(running, 'tester@example.org');
      const headers = { authorization: `Bearer ${token}` };
      const start = (through: string) =>
        graphql<{ startDebate: string }>(through, START, {
          headers,
          variables: { settings: settings() },
        });
      // Taking turns between the two: each gateway alone has seen 3 at most.
      for (let i = 0; i < 5; i += 1) {
        const answer = await start(i % 2 === 0 ? url : second.url);
        expect(answer.errors).toBeUndefined();
      }
      // Then 10 at once, half through each: none starts.
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) => start(i % 2 === 0 ? url : second.url)),
      );
      for (const answer of burst) {
        expect(answer.data).toBeNull();
        expect(answer.errors?.[0]).toMatchObject({
          message: 'Too many debates started in a short time; try again in a minute',
          extensions: { code: 'RATE_LIMITED' },
        });
      }
      // The refused ones took nothing.
      const usage = await graphql<{
        usage: { freeDebatesRemaining: number; totalDebates: number };
      }>(second.url, USAGE, { headers });
      expect(usage.data?.usage).toMatchObject({ freeDebatesRemaining: 95, totalDebates: 5 });
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 60_000);

  it('refuses bad settings before taking anything', async () => {
    const token = await signUp(url, 'cy@example.org');
    const auth = { authorization: `Bearer ${token}` };
    for (const bad of [
      settings('   '),
      settings('x'.repeat(501)),
      { ...settings(), first: { ...settings().first, stance: 0.65 } },
      { ...settings(), debateFormat: 'shouting' },
    ]) {
      const answer = await graphql(url, START, { headers: auth, variables: { settings: bad } });
      expect(answer.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    }
    const anonymous = await graphql(url, START, { variables: { settings: settings() } });
    expect(anonymous.errors?.[0]?.message).toBe('Sign in required');
    const usage = await graphql<{ usage: { freeDebatesRemaining: number } }>(url, USAGE, {
      headers: auth,
    });
    expect(usage.data?.usage.freeDebatesRemaining).toBe(2);
  });
});

describe('a debate whose speaker fails entirely', () => {
  let openai: FakeOpenAi;
  let running: TestPlatform;

  beforeAll(async () => {
    openai = await startFakeOpenAi();
    openai.mode = { kind: 'status', status: 500 };
    running = await startTestPlatformOverNats({
      speakers: {
        OPENAI_API_KEY: 'sk-test-key',
        OPENAI_BASE_URL: openai.baseUrl,
        OPENAI_MAX_RETRIES: 0,
        TURN_PAUSE_MS: 0,
      },
    });
  }, 30_000);

  afterAll(async () => {
    await running?.teardown();
    await openai?.close();
  });

  it('fails the run and gives the debate back', async () => {
    const { url } = running.platform;
    const token = await signUp(url, 'dee@example.org');
    const auth = { authorization: `Bearer ${token}` };
    const started = await graphql<{ startDebate: string }>(url, START, {
      headers: auth,
      variables: { settings: settings(undefined, ['gpt-4', 'gpt-3.5-turbo']) },
    });
    const events = await watch(url, token, started.data?.startDebate ?? '');
    expect(events.filter((event) => event.type === 'turnCompleted' && event.failed)).toHaveLength(
      6,
    );
    expect(events.at(-1)).toMatchObject({
      type: 'runFailed',
      message: 'An error occurred during the debate. Please try again.',
    });
    // The refund lands just after the run's last event.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const usage = await graphql<{
        usage: { freeDebatesRemaining: number; totalDebates: number };
      }>(url, USAGE, { headers: auth });
      if (usage.data?.usage.freeDebatesRemaining === 2) {
        expect(usage.data.usage.totalDebates).toBe(0);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the debate was not given back');
  }, 30_000);
});
