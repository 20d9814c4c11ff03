import {
  communityDebateContracts,
  EXAMPLES_AUTHOR,
  generationContracts,
  OFFLINE_MODEL_ID,
} from '@debate/contracts';
import { createClientProxy, natsTransport, ServiceClient } from '@debate/nest';
import { eventually } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EXAMPLES, seedExamples } from '../src/seed-examples.js';
import { type NatsTestPlatform, startTestPlatformOverNats } from './test-platform.js';

// npm start's first look (SEED_EXAMPLES): examples through the services' own requests, over NATS.
describe('the example debates', () => {
  let running: NatsTestPlatform;
  let client: ServiceClient;

  beforeAll(async () => {
    // The platform's own pacing: the examples are written at once all the same.
    running = await startTestPlatformOverNats({});
    client = new ServiceClient(
      createClientProxy(natsTransport(running.natsUrl), { anonymous: 'examples-test' }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await running?.teardown();
  });

  const ranking = async () => {
    const ranked = await client.request(communityDebateContracts.rank, {
      sort: 'recent',
      period: 'all',
      utcOffsetMinutes: 0,
      starredOnly: false,
      limit: 50,
    });
    if (!('debates' in ranked)) throw new Error(ranked.message);
    return ranked.debates;
  };

  it('shares the examples on an empty community, each marked, written and judged offline', async () => {
    const started = Date.now();
    await expect(seedExamples(client)).resolves.toBe(EXAMPLES.length);
    // At once: paced (30 words a second, a second between turns) five debates take minutes.
    expect(Date.now() - started).toBeLessThan(30_000);
    // The community has them once the share events have arrived.
    const shared = await eventually(ranking, (debates) => debates.length === EXAMPLES.length);
    expect(shared.map((debate) => debate.topic).sort()).toEqual(
      EXAMPLES.map((example) => example.topic).sort(),
    );
    for (const debate of shared) {
      expect(debate).toMatchObject({ example: true, userDisplayName: EXAMPLES_AUTHOR });
      expect(debate.model1.writtenBy?.kind).toBe('offline');
      expect(debate.model2.writtenBy?.kind).toBe('offline');
      expect(debate.verdict?.judgedBy.kind).toBe('offline');
    }
  });

  it('does not share them a second time', async () => {
    await expect(seedExamples(client)).resolves.toBe(0);
    expect(await ranking()).toHaveLength(EXAMPLES.length);
  });

  it('refuses an example written by anything but the offline speaker', async () => {
    const settings = {
      topic: 'Should this cost anything?',
      debateFormat: 'structured',
      moderatorEnabled: false,
      first: { model: 'gpt-4', stance: 0.5, rhetoricStyle: 'standard', personality: '' },
      second: { model: OFFLINE_MODEL_ID, stance: -0.5, rhetoricStyle: 'standard', personality: '' },
    } as const;
    await expect(client.request(generationContracts.writeExample, { settings })).rejects.toThrow(
      /offline speaker only/,
    );
  });
});
