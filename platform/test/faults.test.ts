import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sharedDebateOf } from '@debate/testing';
import { settingsOf } from './fixtures.js';
import { graphql } from './graphql-client.js';
import {
  type GenerationProcess,
  type NatsTestPlatform,
  startGenerationProcess,
  startTestPlatformOverNats,
} from './test-platform.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  readonly sentAt: number;
  readonly ms: number;
  readonly ok: boolean;
  readonly code: unknown;
}

// Faults over real NATS, the services and the gateway as separate applications.
describe('a service that goes down under load', () => {
  let running: NatsTestPlatform;

  beforeAll(async () => {
    running = await startTestPlatformOverNats();
  }, 30_000);

  afterAll(async () => {
    await running?.teardown();
  });

  it('gets clear errors within 5 s while it is down, and answers within 2 s of its restart', async () => {
    const { platform } = running;
    const outcomes: Outcome[] = [];
    let loading = true;
    // A steady load on a query that needs the generation service, 16 requests at a time.
    const workers = Array.from({ length: 16 }, async () => {
      while (loading) {
        const sentAt = Date.now();
        const result = await graphql(platform.url, '{ catalog { models { id } } }');
        outcomes.push({
          sentAt,
          ms: Date.now() - sentAt,
          ok: !result.errors,
          code: result.errors?.[0]?.extensions?.['code'],
        });
      }
    });
    await sleep(1_000);
    const stoppedAt = Date.now();
    await platform.stopService('generation');
    await sleep(2_000);
    await platform.startService('generation');
    const restartedAt = Date.now();
    await sleep(3_000);
    loading = false;
    await Promise.all(workers);

    const before = outcomes.filter((outcome) => outcome.sentAt + outcome.ms < stoppedAt);
    expect(before.length).toBeGreaterThan(10);
    expect(before.every((outcome) => outcome.ok)).toBe(true);

    const failed = outcomes.filter((outcome) => !outcome.ok);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((outcome) => outcome.code === 'SERVICE_UNAVAILABLE')).toBe(true);
    expect(Math.max(...failed.map((outcome) => outcome.ms))).toBeLessThan(5_000);
    // Nothing fails once the service has been back for 2 s.
    const recovered = outcomes.filter((outcome) => outcome.sentAt >= restartedAt + 2_000);
    expect(recovered.length).toBeGreaterThan(10);
    expect(recovered.every((outcome) => outcome.ok)).toBe(true);
  }, 30_000);
});

// A service process told to stop (SIGTERM) answers what it has already received first.
describe('a service stopped with SIGTERM', () => {
  it('drains: every request it took is answered, then it exits cleanly', async () => {
    const { startNatsServer } = await import('@debate/nest/testing');
    const { start: startStore } = await import('@debate/embedded-mongo');
    const { createClientProxy, natsTransport, ServiceClient } = await import('@debate/nest');
    const { communityDebateContracts } = await import('@debate/contracts');
    const { spawn } = await import('node:child_process');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { fileURLToPath } = await import('node:url');

    const dataDir = mkdtempSync(join(tmpdir(), 'drain-test-'));
    const nats = await startNatsServer();
    const store = await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
    const client = new ServiceClient(
      createClientProxy(natsTransport(nats.url), { anonymous: 'drain-test' }),
    );
    const service = spawn(process.execPath, ['services/community/dist/main.js'], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      env: { ...process.env, NATS_URL: nats.url, MONGO_URL: store.uri, OPS_PORT: '0' },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => service.once('exit', resolve));
    try {
      const rank = () =>
        client.request(
          communityDebateContracts.rank,
          { sort: 'popular', period: 'all', utcOffsetMinutes: 0, starredOnly: false, limit: 10 },
          { timeoutMs: 10_000 },
        );
      for (let attempt = 0; ; attempt += 1) {
        const ready = await rank().then(
          () => true,
          () => false,
        );
        if (ready) break;
        if (attempt > 100) throw new Error('the community service did not start');
        await sleep(100);
      }
      // A burst, and SIGTERM while it is being handled.
      const burst = Array.from({ length: 300 }, () => rank().then(() => 'answered', String));
      await sleep(5);
      service.kill('SIGTERM');
      const answers = await Promise.all(burst);
      // A request it took is never lost (the caller would wait out its timeout: before the
      // drain waited for replies, 291 of 300 were). One sent after it stopped taking requests
      // finds no responder at once.
      expect(answers.filter((answer) => /no answer within/.test(answer))).toEqual([]);
      expect(answers.every((answer) => answer === 'answered' || /unavailable/i.test(answer))).toBe(
        true,
      );
      expect(answers.filter((answer) => answer === 'answered').length).toBeGreaterThan(0);
      expect(await exited).toBe(0);
    } finally {
      if (service.exitCode === null) service.kill('SIGKILL');
      await client.close();
      await nats.stop();
      await store.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

// The broker itself restarted: the services reconnect by themselves, and no event the broker
// acknowledged is lost.
describe('NATS restarted', () => {
  it('loses no acknowledged event, and the platform answers again by itself', async () => {
    const { natsTransport, JetStreamEventLog } = await import('@debate/nest');
    const { startNatsServer } = await import('@debate/nest/testing');
    const { communityDebateContracts, debateSharedEvent } = await import('@debate/contracts');
    const { startTestPlatform } = await import('./test-platform.js');
    const nats = await startNatsServer();
    const running = await startTestPlatform(natsTransport(nats.url));
    const events = new JetStreamEventLog({ url: nats.url }, { anonymous: 'restart-test' });
    const share = (id: string, sharedAt = new Date().toISOString()) =>
      events.publish(
        debateSharedEvent,
        { debate: sharedDebateOf(id, { categories: ['Science'], timestamp: sharedAt, sharedAt }) },
        `${id}:${sharedAt}`,
      );
    const QUERY = '{ communityDebates(category: "Science", limit: 50) { debates { id } } }';
    const publicIds = async () => {
      const result = await graphql<{ communityDebates: { debates: Array<{ id: string }> } }>(
        running.platform.url,
        QUERY,
      );
      return result.data?.communityDebates.debates.map((debate) => debate.id) ?? null;
    };
    try {
      const before = Array.from({ length: 10 }, (_, i) => `before-${i}`);
      for (const id of before) await share(id);

      await nats.restart();
      const restartedAt = Date.now();
      // Acknowledged by JetStream before the restart, or after it: all must come through.
      // A publish is acknowledged only once JetStream answers: until the broker is back, the
      // publisher retries (the same event id, so a retry that did land is not counted twice).
      const after = Array.from({ length: 10 }, (_, i) => `after-${i}`);
      for (const id of after) {
        const sharedAt = new Date().toISOString();
        for (let attempt = 0; ; attempt += 1) {
          const acknowledged = await share(id, sharedAt).then(
            () => true,
            () => false,
          );
          if (acknowledged) break;
          if (attempt > 60) throw new Error('JetStream did not come back');
          await sleep(250);
        }
      }

      let ids: string[] | null = null;
      while (Date.now() - restartedAt < 20_000) {
        ids = await publicIds();
        if (ids && ids.length === 20) break;
        await sleep(250);
      }
      expect([...(ids ?? [])].sort()).toEqual([...before, ...after].sort());
      // The services' request/reply came back with the broker, without a restart of their own.
      const { debate } = await running.platform.gateway
        .get((await import('@debate/nest')).ServiceClient)
        .request(communityDebateContracts.get, { debateId: 'after-9', countView: false });
      expect(debate?.id).toBe('after-9');
    } finally {
      await events.close();
      await running.teardown();
      await nats.stop();
    }
  }, 60_000);
});

// A generation instance being replaced or scaled down (SIGTERM) lets the debates it is running
// finish, whether someone watches them or not, instead of cutting them off.
describe('a generation instance stopped with SIGTERM', () => {
  it('finishes the debates it is running, then exits cleanly', async () => {
    const { generationContracts, runLookupContract, usageContracts } =
      await import('@debate/contracts');
    const { createClientProxy, INSTANCE_KEY, natsTransport, ServiceClient } =
      await import('@debate/nest');
    const { signUpThroughGateway } = await import('./graphql-client.js');
    const { firstValueFrom, toArray } = await import('rxjs');
    const fast = { OFFLINE_TOKENS_PER_SECOND: 0, OFFLINE_FIRST_TOKEN_MS: 0, TURN_PAUSE_MS: 0 };
    const running = await startTestPlatformOverNats({
      speakers: fast,
      testAccountEmail: 'ada@example.org',
      // Ada starts until two runs land on the second instance (5 a minute by default).
      startsPerMinute: 100,
    });
    let second: GenerationProcess | undefined;
    const client = new ServiceClient(
      createClientProxy(natsTransport(running.natsUrl), { anonymous: 'gen-drain' }),
    );
    try {
      // The second instance writes its debates slowly: a few seconds each.
      second = await startGenerationProcess(running, {
        DRAIN_TIMEOUT_MS: '20000',
        OFFLINE_TOKENS_PER_SECOND: '300',
        OFFLINE_FIRST_TOKEN_MS: '0',
        TURN_PAUSE_MS: '200',
      });
      const { child, exited } = second;
      const ada = await signUpThroughGateway(running.platform.url, 'ada@example.org');
      const start = async () => {
        const started = await client.request(generationContracts.start, {
          userId: ada.id,
          email: 'ada@example.org',
          emailVerified: true,
          settings: settingsOf('Should the last train run later?'),
        });
        if (!started.started) throw new Error(started.message);
        return started.runId;
      };
      // Two runs on the second instance (the platform's own instance takes the others): one
      // watched, and one started a second later that nobody watches, so it ends last.
      const startOnSecond = async () => {
        for (let attempt = 0; attempt < 40; attempt += 1) {
          const runId = await start();
          if (!runId.startsWith(INSTANCE_KEY)) return runId;
        }
        throw new Error('no run landed on the second instance');
      };
      const watchedId = await startOnSecond();
      const instance = watchedId.slice(0, 8);
      const watched = firstValueFrom(
        client
          .stream(generationContracts.watch, { runId: watchedId, userId: ada.id }, { instance })
          .pipe(toArray()),
      );
      await sleep(1_000);
      const unwatchedId = await startOnSecond();
      const stats = () =>
        client.request(usageContracts.stats, {
          userId: ada.id,
          email: 'ada@example.org',
          emailVerified: true,
        });
      const before = await stats();
      // Both are still being written when the instance is told to stop.
      const lookup = (runId: string) =>
        client.request(runLookupContract, { runId, userId: ada.id }, { instance });
      expect((await lookup(watchedId)).run).toBeNull();
      expect((await lookup(unwatchedId)).run).toBeNull();
      child.kill('SIGTERM');

      const events = await watched;
      expect(events.at(-1)?.type).toBe('runCompleted');
      expect(await exited).toBe(0);
      // Neither was cut off: each completed and was settled with the usage service (a run
      // stays open in the user's usage until it is settled, or given back when it fails).
      const after = await stats();
      expect(after.freeDebatesRemaining).toBe(before.freeDebatesRemaining);
      const { MongoClient } = await import('mongodb');
      const mongo = await MongoClient.connect(running.mongoUrl);
      try {
        const usage = await mongo
          .db('usage')
          .collection<{
            _id: string;
            openRuns: string[];
            openRunsTakenAt: Record<string, Date>;
          }>('debateUsage')
          .findOne({ _id: ada.id });
        expect(usage?.openRuns).toEqual([]);
        expect(usage?.openRunsTakenAt).toEqual({});
      } finally {
        await mongo.close();
      }
      expect(second.output()).not.toMatch(/failed|could not be settled/i);
    } finally {
      if (second?.child.exitCode === null) second.child.kill('SIGKILL');
      await client.close();
      await running.teardown();
    }
  }, 90_000);
});

describe('a generation instance killed while it runs a debate', () => {
  it("tells the run's watcher it is lost, and gives its debate back once the run has been open longer than any run lasts", async () => {
    const { generationContracts, NO_SUCH_RUN, usageContracts } = await import('@debate/contracts');
    const { createClientProxy, INSTANCE_KEY, natsTransport, ServiceClient } =
      await import('@debate/nest');
    const { collectSubscription, signUpThroughGateway } = await import('./graphql-client.js');
    const fast = { OFFLINE_TOKENS_PER_SECOND: 0, OFFLINE_FIRST_TOKEN_MS: 0, TURN_PAUSE_MS: 0 };
    // A run may stay open 3 s here (an hour by default, USAGE_ABANDONED_RUN_MS).
    const running = await startTestPlatformOverNats({
      speakers: fast,
      testAccountEmail: 'ada@example.org',
      abandonedRunAfterMs: 3_000,
      // Ada starts until a run lands on the second instance (5 a minute by default).
      startsPerMinute: 100,
    });
    let second: GenerationProcess | undefined;
    const client = new ServiceClient(
      createClientProxy(natsTransport(running.natsUrl), { anonymous: 'gen-kill' }),
    );
    try {
      // The second instance writes its debates slowly: it is killed in the middle of one.
      second = await startGenerationProcess(running, {
        OFFLINE_TOKENS_PER_SECOND: '30',
        OFFLINE_FIRST_TOKEN_MS: '0',
        TURN_PAUSE_MS: '1000',
      });
      const ada = await signUpThroughGateway(running.platform.url, 'ada@example.org');
      const stats = () =>
        client.request(usageContracts.stats, {
          userId: ada.id,
          email: 'ada@example.org',
          emailVerified: true,
        });
      let killedRun: string | undefined;
      for (let attempt = 0; attempt < 40 && !killedRun; attempt += 1) {
        const started = await client.request(generationContracts.start, {
          userId: ada.id,
          email: 'ada@example.org',
          emailVerified: true,
          settings: settingsOf('Should the night bus be free?'),
        });
        if (!started.started) throw new Error(started.message);
        if (!started.runId.startsWith(INSTANCE_KEY)) killedRun = started.runId;
      }
      expect(killedRun).toBeDefined();
      // Watched through the gateway, as the engine page watches it.
      const watched = collectSubscription(
        running.platform.url,
        'subscription ($id: String!) { debateRun(id: $id) { type } }',
        Number.MAX_SAFE_INTEGER,
        { accessToken: ada.token, variables: { id: killedRun } },
      ).then(
        () => 'ended without an error',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      // The runs the platform's own instance took end at once and are settled.
      await sleep(500);
      const before = await stats();
      second.child.kill('SIGKILL');
      const killedAt = Date.now();
      expect(await second.exited).toBeNull();

      // Nobody settles or refunds the killed run; until it has been open 3 s, it may still end.
      expect((await stats()).freeDebatesRemaining).toBe(before.freeDebatesRemaining);
      await sleep(3_500);
      const after = await stats();
      expect(after.freeDebatesRemaining).toBe(before.freeDebatesRemaining + 1);
      expect(after.totalDebates).toBe(before.totalDebates - 1);
      // Once.
      expect((await stats()).freeDebatesRemaining).toBe(before.freeDebatesRemaining + 1);
      // The watcher is told the run is gone (NOT_FOUND: a reload need not follow it again)
      // within the gateway's silence and three asks, not left waiting for ever.
      const told = await Promise.race([
        watched,
        sleep(Math.max(0, killedAt + 20_000 - Date.now())).then(() => 'not told within 20 s'),
      ]);
      expect(told).toContain(NO_SUCH_RUN);
      expect(told).toContain('NOT_FOUND');
    } finally {
      if (second?.child.exitCode === null) second.child.kill('SIGKILL');
      await client.close();
      await running.teardown();
    }
  }, 90_000);
});
