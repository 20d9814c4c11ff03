import { inProcessTransport } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { settingsOf } from './fixtures.js';
import { graphql, signUpThroughGateway } from './graphql-client.js';
import { startTestPlatform, type TestPlatform } from './test-platform.js';

const START = 'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }';
const WATCH = 'subscription ($id: String!) { debateRun(id: $id) { type } }';

// A subscription's failure reaches the client over the WebSocket, past the resolvers' exception
// filter: it must read as a query's does, without the NATS subject or the transport's words.
describe('a debate watched while its service is down', () => {
  let running: TestPlatform;

  beforeAll(async () => {
    running = await startTestPlatform(inProcessTransport());
  }, 60_000);

  afterAll(async () => {
    await running?.teardown();
  });

  it("reads 'The service is unavailable', naming no subject", async () => {
    const { url } = running.platform;
    const ada = await signUpThroughGateway(url, 'ada@example.org');
    const started = await graphql<{ startDebate: string }>(url, START, {
      variables: { settings: settingsOf('Should libraries open on Sundays?') },
      headers: { authorization: `Bearer ${ada.token}` },
    });
    const runId = started.data?.startDebate ?? '';
    expect(runId).not.toBe('');

    await running.platform.stopService('generation');
    const client = createClient({
      url: `${url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${ada.token}` },
    });
    try {
      // What the client is told, as it arrives: an errors payload or the subscription's error.
      const told = await new Promise<string>((resolve) => {
        client.subscribe(
          { query: WATCH, variables: { id: runId } },
          {
            next: (result) => {
              if (result.errors) resolve(JSON.stringify(result.errors));
            },
            error: (error) => resolve(JSON.stringify(error)),
            complete: () => resolve('complete'),
          },
        );
      });
      expect(told).toContain('The service is unavailable');
      expect(told).not.toMatch(/generation\.run|no responders|subject/i);
    } finally {
      await client.dispose();
      await running.platform.startService('generation');
    }
  }, 30_000);
});
