import { debatesContracts, generationContracts } from '@debate/contracts';
import { createClientProxy, INSTANCE_KEY, natsTransport, ServiceClient } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { settingsOf } from './fixtures.js';
import { collectSubscription, type SignedUp, signUpThroughGateway } from './graphql-client.js';
import {
  type NatsTestPlatform,
  startGenerationProcess,
  startTestPlatformOverNats,
} from './test-platform.js';

const WATCH = 'subscription ($id: String!) { debateRun(id: $id) { type } }';
const FAST = { OFFLINE_TOKENS_PER_SECOND: 0, OFFLINE_FIRST_TOKEN_MS: 0, TURN_PAUSE_MS: 0 };

const settings = (topic: string) => settingsOf(topic, { moderatorEnabled: false });

// The generation service scaled out: a second instance, a process of its own, beside the one
// the test platform runs. Starts go to either; each run is watched and saved on its own.
describe('two instances of the generation service', () => {
  let running: NatsTestPlatform;
  let second: ChildProcess;
  let client: ServiceClient;
  let ada: SignedUp;
  let kept = '';

  beforeAll(async () => {
    running = await startTestPlatformOverNats({
      speakers: FAST,
      testAccountEmail: 'ada@example.org',
      // Ada starts 16 in a row here (5 a minute by default).
      startsPerMinute: 16,
    });
    ({ child: second } = await startGenerationProcess(
      running,
      Object.fromEntries(Object.entries(FAST).map(([key, value]) => [key, String(value)])),
    ));
    client = new ServiceClient(
      createClientProxy(natsTransport(running.natsUrl), { anonymous: 'scaling-test' }),
    );
    ada = await signUpThroughGateway(running.platform.url, 'ada@example.org');
  }, 60_000);

  afterAll(async () => {
    if (second && second.exitCode === null) {
      const exited = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      await exited;
    }
    await client?.close();
    await running?.teardown();
  });

  it('lets every run be watched through the gateway and saved, whichever instance has it', async () => {
    const runIds: string[] = [];
    for (let i = 0; i < 16; i += 1) {
      const started = await client.request(generationContracts.start, {
        userId: ada.id,
        email: 'ada@example.org',
        emailVerified: true,
        settings: settings(`Scaling question ${i}`),
      });
      if (!started.started) throw new Error(started.message);
      runIds.push(started.runId);
    }
    // Both instances took runs (a queue group spreads them; all 16 on one has odds of 1 in 32,768).
    const keys = new Set(runIds.map((runId) => runId.slice(0, 8)));
    expect(keys).toEqual(new Set([INSTANCE_KEY, ...keys]));
    expect(keys.size).toBe(2);

    for (const runId of runIds) {
      const events = await collectSubscription<{ debateRun: { type: string } }>(
        running.platform.url,
        WATCH,
        1_000,
        { accessToken: ada.token, variables: { id: runId } },
      );
      expect(events.at(-1)?.debateRun.type).toBe('runCompleted');
      // One run of the second instance is kept unsaved, for the next test.
      if (!kept && !runId.startsWith(INSTANCE_KEY)) {
        kept = runId;
        continue;
      }
      const saved = await client.request(debatesContracts.save, {
        userId: ada.id,
        userDisplayName: 'Ada',
        isPro: false,
        runId,
        categories: ['Science'],
      });
      expect(saved).toMatchObject({ saved: true, debate: { id: runId } });
    }
  }, 60_000);

  it('says a run is no longer available once the instance that had it stopped', async () => {
    expect(kept).not.toBe('');
    const exited = new Promise((resolve) => second.once('exit', resolve));
    second.kill('SIGTERM');
    await exited;
    const saved = await client.request(debatesContracts.save, {
      userId: ada.id,
      userDisplayName: 'Ada',
      isPro: false,
      runId: kept,
      categories: ['Science'],
    });
    expect(saved).toEqual({
      saved: false,
      reason: 'run_not_found',
      message: 'This debate is no longer available to save',
    });
    await expect(
      collectSubscription(running.platform.url, WATCH, 1_000, {
        accessToken: ada.token,
        variables: { id: kept },
      }),
    ).rejects.toThrow(/unavailable/i);
  }, 30_000);
});
