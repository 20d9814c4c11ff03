import { serviceNames } from '@debate/contracts';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunningPlatform } from '../src/start-platform.js';
import { collectSubscription, graphql } from './graphql-client.js';

interface HealthRow {
  service: string;
  status: 'up' | 'down';
  reason: string | null;
}

const HEALTH = '{ health { service status reason } }';

async function healthOf(url: string): Promise<Map<string, HealthRow>> {
  const result = await graphql<{ health: HealthRow[] }>(url, HEALTH);
  return new Map((result.data?.health ?? []).map((row) => [row.service, row]));
}

/** Polls `health` until `service` has `status`; returns how long that took. */
async function waitForStatus(url: string, service: string, status: 'up' | 'down', limitMs: number) {
  const started = Date.now();
  for (;;) {
    const row = (await healthOf(url)).get(service);
    if (row?.status === status) return Date.now() - started;
    if (Date.now() - started > limitMs) {
      throw new Error(`${service} still ${row?.status ?? 'missing'} after ${limitMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The gateway's behaviour over one transport: the same assertions run over real NATS and over
 * the in-process transport, because only configuration may differ between the two.
 */
export function describeGateway(
  transportName: string,
  start: () => Promise<{ platform: RunningPlatform; teardown: () => Promise<void> }>,
): void {
  describe(`the gateway over the ${transportName} transport`, () => {
    let platform: RunningPlatform;
    let teardown: () => Promise<void>;

    beforeAll(async () => {
      ({ platform, teardown } = await start());
    });

    afterAll(async () => {
      await teardown();
    });

    it('reports all five services up and serves the catalog in one request', async () => {
      const result = await graphql<{
        health: Array<{ service: string; status: string }>;
        catalog: { categories: string[]; topics: string[] };
      }>(platform.url, '{ health { service status } catalog { categories topics } }');
      expect(result.errors).toBeUndefined();
      expect(result.data?.health).toEqual(
        serviceNames.map((service) => ({ service, status: 'up' })),
      );
      expect(result.data?.catalog.categories).toEqual([
        'Politics',
        'Technology',
        'Philosophy',
        'Science',
        'Society',
        'Economics',
        'Environment',
        'Ethics',
        'Culture',
        'Funny',
      ]);
      expect(result.data?.catalog.topics.length).toBeGreaterThanOrEqual(75);
    });

    it('serves the debate settings the engine page needs', async () => {
      const result = await graphql<{
        catalog: {
          rhetoricStyles: string[];
          debateFormats: string[];
          models: string[];
          roundTitles: string[];
        };
      }>(platform.url, '{ catalog { rhetoricStyles debateFormats models roundTitles } }');
      expect(result.data?.catalog).toEqual({
        rhetoricStyles: ['standard', 'formal', 'casual', 'emotional', 'factual', 'adversarial'],
        debateFormats: ['structured', 'oxford', 'crossfire', 'parliamentary', 'comment_section'],
        models: ['gpt-4', 'gpt-3.5-turbo'],
        roundTitles: ['Constructive Arguments', 'Rebuttal', 'Summary'],
      });
    });

    it('refuses an invalid query with a validation error', async () => {
      const result = await graphql(platform.url, '{ catalog { noSuchField } }');
      expect(result.status).toBe(400);
      expect(result.errors?.[0]?.message).toMatch(/noSuchField/);
    });

    it('answers the HTTP probe, saying how long the gateway took (Server-Timing)', async () => {
      const response = await fetch(`${platform.url}/health`);
      expect(response.status).toBe(200);
      expect(response.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d{2}$/);
      expect(await response.json()).toEqual({ status: 'ok' });
    });

    it('streams service health over a graphql-ws subscription', async () => {
      const snapshots = await collectSubscription<{
        serviceHealth: Array<{ service: string; status: string }>;
      }>(platform.url, 'subscription { serviceHealth(intervalMs: 500) { service status } }', 2);
      expect(snapshots).toHaveLength(2);
      for (const snapshot of snapshots) {
        expect(snapshot.serviceHealth.map((row) => row.status)).toEqual(
          serviceNames.map(() => 'up'),
        );
      }
    });

    it('reports a stopped service down within 5 s, and up again once it restarts', async () => {
      await platform.stopService('usage');
      const downAfter = await waitForStatus(platform.url, 'usage', 'down', 5_000);
      expect(downAfter).toBeLessThan(5_000);
      const rows = await healthOf(platform.url);
      expect(rows.get('usage')?.reason).toMatch(/usage service is unavailable/);
      expect([...rows.values()].filter((row) => row.status === 'up')).toHaveLength(4);

      await platform.startService('usage');
      await waitForStatus(platform.url, 'usage', 'up', 5_000);
    });

    it('answers a query that needs a stopped service with a clear error within 5 s', async () => {
      await platform.stopService('generation');
      try {
        const started = Date.now();
        const result = await graphql(platform.url, '{ catalog { topics } }');
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(result.errors?.[0]?.message).toMatch(/generation service is unavailable/);
        expect(result.errors?.[0]?.extensions?.['code']).toBe('SERVICE_UNAVAILABLE');
      } finally {
        await platform.startService('generation');
      }
      const recovered = await graphql<{ catalog: { topics: string[] } }>(
        platform.url,
        '{ catalog { topics } }',
      );
      expect(recovered.data?.catalog.topics.length).toBeGreaterThanOrEqual(75);
    });
  });
}
