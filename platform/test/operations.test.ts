import { subjects } from '@debate/contracts';
import { type OperationsServer, serveServiceOperations } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from '@nats-io/transport-node';
import { graphql } from './graphql-client.js';
import { type NatsTestPlatform, startTestPlatformOverNats } from './test-platform.js';

/** The value of one sample of `metric` with exactly these labels, 0 when absent. */
function sample(text: string, metric: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort();
  for (const line of text.split('\n')) {
    const match = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== metric) continue;
    const have = (match[2] ?? '').split(',').sort();
    if (JSON.stringify(have) === JSON.stringify(wanted)) return Number(match[3]);
  }
  return 0;
}

// A service's operations port over real NATS: probes, and counters that move with the load.
describe('operations port', () => {
  let running: NatsTestPlatform;
  let operations: OperationsServer;

  beforeAll(async () => {
    running = await startTestPlatformOverNats();
    const app = running.platform.services.get('community');
    if (!app) throw new Error('no community service');
    operations = await serveServiceOperations(app, { port: 0, host: '127.0.0.1' });
  }, 30_000);

  afterAll(async () => {
    await operations?.close();
    await running?.teardown();
  });

  it('is live, and ready with its NATS connection and its store', async () => {
    expect((await fetch(`${operations.url}/health/live`)).status).toBe(200);
    const ready = await fetch(`${operations.url}/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([
      200,
      { status: 'ok', checks: { nats: 'ok', store: 'ok' } },
    ]);
  });

  it('counts requests per NATS subject and outcome, and GraphQL operations', async () => {
    const scrape = async () => (await fetch(`${operations.url}/metrics`)).text();
    const rankOk = { service: 'community', subject: subjects.community.debate.rank, outcome: 'ok' };
    const rankInvalid = { ...rankOk, outcome: 'invalid' };
    const graphqlOk = { operation: 'communityDebates', outcome: 'ok' };
    const before = await scrape();

    const QUERY = '{ communityDebates(sort: MOST_POPULAR) { next } }';
    for (let i = 0; i < 7; i += 1) {
      const result = await graphql(running.platform.url, QUERY);
      expect(result.errors).toBeUndefined();
    }
    // A payload the contract refuses, sent raw (our clients validate before sending), is
    // refused and counted as invalid, apart from the rest.
    const nc = await connect({ servers: running.natsUrl });
    try {
      const reply = await nc.request(
        subjects.community.debate.rank,
        JSON.stringify({ pattern: subjects.community.debate.rank, data: { limit: 0 }, id: '1' }),
        { timeout: 5_000 },
      );
      expect(reply.string()).toMatch(/INVALID_PAYLOAD/);
    } finally {
      await nc.close();
    }

    const after = await scrape();
    const moved = (metric: string, labels: Record<string, string>) =>
      sample(after, metric, labels) - sample(before, metric, labels);
    expect(moved('nats_requests_total', rankOk)).toBe(7);
    expect(moved('graphql_operations_total', graphqlOk)).toBe(7);
    expect(
      moved('nats_request_duration_seconds_count', {
        service: 'community',
        subject: subjects.community.debate.rank,
      }),
    ).toBe(7);
    expect(moved('nats_requests_total', rankInvalid)).toBe(1);
  });
});
