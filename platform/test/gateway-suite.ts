import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunningPlatform } from '../src/start-platform.js';
import { graphql, type GraphqlResult, signUpThroughGateway } from './graphql-client.js';

const CATEGORIES = [
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
];

/** What a user sees of a service through the gateway: a query only that service answers. */
const USAGE = '{ usage { freeDebatesRemaining } }';

/**
 * Asks `query` until `done` says its answer is the one awaited; returns how long that took and
 * that answer.
 */
async function waitForAnswer<T>(
  ask: () => Promise<GraphqlResult<T>>,
  done: (answer: GraphqlResult<T>) => boolean,
  limitMs: number,
): Promise<{ afterMs: number; answer: GraphqlResult<T> }> {
  const started = Date.now();
  for (;;) {
    const answer = await ask();
    if (done(answer)) return { afterMs: Date.now() - started, answer };
    if (Date.now() - started > limitMs) {
      throw new Error(`Still ${JSON.stringify(answer)} after ${limitMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const codeOf = (answer: GraphqlResult<unknown>) => answer.errors?.[0]?.extensions?.['code'];

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

    it('serves the categories and the catalog in one request', async () => {
      const result = await graphql<{
        categories: string[];
        catalog: { categories: string[]; topics: string[] };
      }>(platform.url, '{ categories catalog { categories topics } }');
      expect(result.errors).toBeUndefined();
      expect(result.data?.categories).toEqual(CATEGORIES);
      expect(result.data?.catalog.categories).toEqual(CATEGORIES);
      expect(result.data?.catalog.topics.length).toBeGreaterThanOrEqual(75);
    });

    it('serves the debate settings the engine page needs', async () => {
      const result = await graphql<{
        catalog: {
          rhetoricStyles: string[];
          debateFormats: string[];
          models: Array<{
            id: string;
            label: string;
            kind: string;
            status: string;
            speakerMode: string;
          }>;
          searcher: boolean;
          roundTitles: string[];
        };
      }>(
        platform.url,
        '{ catalog { rhetoricStyles debateFormats models { id label kind status speakerMode } searcher roundTitles } }',
      );
      expect(result.data?.catalog).toEqual({
        rhetoricStyles: ['standard', 'formal', 'casual', 'emotional', 'factual', 'adversarial'],
        debateFormats: ['structured', 'oxford', 'crossfire', 'parliamentary', 'comment_section'],
        // npm start's defaults: no model configured, the offline speaker alone.
        models: [
          {
            id: 'offline',
            label: 'Offline speaker',
            kind: 'offline',
            status: 'ok',
            speakerMode: 'single',
          },
        ],
        // No search backend: no searcher runs.
        searcher: false,
        roundTitles: ['Constructive Arguments', 'Rebuttal', 'Summary'],
      });
    });

    it('refuses an invalid query with a validation error', async () => {
      const result = await graphql(platform.url, '{ catalog { noSuchField } }');
      expect(result.status).toBe(400);
      expect(result.errors?.[0]?.message).toMatch(/noSuchField/);
    });

    it('says how long the gateway took to answer (Server-Timing)', async () => {
      const result = await graphql<{ categories: string[] }>(platform.url, '{ categories }');
      expect(result.status).toBe(200);
      expect(result.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d{2}$/);
      expect(result.data?.categories).toEqual(CATEGORIES);
    });

    it("answers a stopped service's query unavailable within 5 s, the others' as before, and again once it restarts", async () => {
      const user = await signUpThroughGateway(platform.url, `gateway-${transportName}@example.org`);
      const headers = { authorization: `Bearer ${user.token}` };
      const usage = () =>
        graphql<{ usage: { freeDebatesRemaining: number } }>(platform.url, USAGE, { headers });
      expect((await usage()).errors).toBeUndefined();

      await platform.stopService('usage');
      const down = await waitForAnswer(usage, (answer) => codeOf(answer) !== undefined, 5_000);
      expect(down.afterMs).toBeLessThan(5_000);
      expect(codeOf(down.answer)).toBe('SERVICE_UNAVAILABLE');
      // The subject and the transport's words stay in the log.
      expect(down.answer.errors?.[0]?.message).toBe('The service is unavailable');
      expect(down.answer.errors?.[0]?.extensions).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        service: 'usage',
      });
      // The four others still answer, each the query only it serves.
      const others = await graphql(
        platform.url,
        '{ me { id } catalog { topics } myDebates { total } communityDebates { next } }',
        { headers },
      );
      expect(others.errors).toBeUndefined();

      await platform.startService('usage');
      const up = await waitForAnswer(usage, (answer) => answer.errors === undefined, 5_000);
      expect(up.answer.data?.usage.freeDebatesRemaining).toBeGreaterThan(0);
    });

    it('answers a query that needs a stopped service with a clear error within 5 s', async () => {
      await platform.stopService('generation');
      try {
        const started = Date.now();
        const result = await graphql(platform.url, '{ catalog { topics } }');
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(result.errors?.[0]?.message).toBe('The service is unavailable');
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
