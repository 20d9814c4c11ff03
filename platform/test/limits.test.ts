import { subjects } from '@debate/contracts';
import { defaultGatewayLimits, type GatewayLimits } from '@debate/gateway';
import { inProcessTransport, processRegistry } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { readFile } from 'node:fs/promises';
import { graphql, signUpThroughGateway } from './graphql-client.js';
import { settingsOf } from './fixtures.js';
import {
  type DeployableProcess,
  type NatsTestPlatform,
  startGatewayProcess,
  startTestPlatform,
  startTestPlatformOverNats,
  type TestPlatform,
} from './test-platform.js';

const SIGN_UP =
  'mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password) { accessToken } }';
const SIGN_IN =
  'mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { accessToken } }';
const PASSWORD = 'a long enough password';

const signUpAs = (url: string, email: string, headers: Record<string, string> = {}) =>
  graphql<{ signUp: { accessToken: string } }>(url, SIGN_UP, {
    variables: { email, password: PASSWORD },
    headers,
  });

/** How many requests of `subject` the services have handled in this process. */
async function handled(subject: string): Promise<number> {
  const metric = await processRegistry().getSingleMetric('nats_requests_total')?.get();
  return (metric?.values ?? [])
    .filter((value) => value.labels['subject'] === subject)
    .reduce((sum, value) => sum + value.value, 0);
}

// The gateway's limits as shipped: two replicas over real NATS, counting in the bucket both share.
describe('the limits, as shipped, across two gateway replicas', () => {
  let running: NatsTestPlatform;
  let replica: DeployableProcess & { readonly url: string };

  beforeAll(async () => {
    running = await startTestPlatformOverNats({ limits: defaultGatewayLimits() });
    replica = await startGatewayProcess(running, { RATE_LIMITS: '{}' });
  }, 60_000);

  afterAll(async () => {
    replica?.child.kill('SIGTERM');
    await replica?.exited;
    await running?.teardown();
  });

  it('lets a burst of 100 sign-ups from one address create 5 accounts; the rest are told to wait', async () => {
    const urls = [running.platform.url, replica.url];
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        // Forwarded headers from a client, not from a trusted proxy: believed by nobody.
        signUpAs(urls[i % 2] ?? '', `burst-${i}@example.org`, {
          'x-forwarded-for': `198.51.100.${i}`,
        }),
      ),
    );
    const created = answers.filter((answer) => answer.data?.signUp.accessToken);
    expect(created).toHaveLength(5);
    const refused = answers.filter((answer) => !answer.data?.signUp);
    expect(refused).toHaveLength(95);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect(answer.errors?.[0]?.message).toMatch(
        /^Too many attempts\. Try again in \d+ (minute|hour)s?\.$/,
      );
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(3_000);
      expect(retryAfter).toBeLessThanOrEqual(3_600);
      expect(answer.errors?.[0]?.extensions?.['retryAfter']).toBe(retryAfter);
    }
    // The refused ones made no account: signing in to one is refused for its credentials.
    const index = answers.findIndex((answer) => !answer.data?.signUp);
    const signIn = await graphql(running.platform.url, SIGN_IN, {
      variables: { email: `burst-${index}@example.org`, password: PASSWORD },
    });
    expect(signIn.errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  }, 60_000);

  it('refuses a 1,000-alias query before it reaches a service', async () => {
    const before = await handled(subjects.generation.catalog.get);
    const aliases = Array.from({ length: 1_000 }, (_, i) => `c${i}: catalog { topics }`);
    const answer = await graphql(running.platform.url, `{ ${aliases.join(' ')} }`);
    expect(answer.status).toBe(400);
    expect(answer.errors).toContainEqual(
      expect.objectContaining({
        message: 'Aliases limit of 15 exceeded, found 1000.',
        extensions: expect.objectContaining({ code: 'QUERY_TOO_COMPLEX', limit: 'maxAliases' }),
      }),
    );
    expect(answer.data ?? null).toBeNull();
    expect(await handled(subjects.generation.catalog.get)).toBe(before);
    // The same field, asked once, is answered.
    const once = await graphql(running.platform.url, '{ catalog { topics } }');
    expect(once.errors).toBeUndefined();
    expect(await handled(subjects.generation.catalog.get)).toBe(before + 1);
  });

  it('refuses a request body over the limit with 413, before reading it as GraphQL', async () => {
    const response = await fetch(`${running.platform.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ catalog { topics } } # ${'x'.repeat(70_000)}` }),
    });
    expect(response.status).toBe(413);
  });
});

/** The limits as shipped without sign-up's ceiling for everyone (these tests sign up often). */
function withoutSignUpCeiling(): GatewayLimits {
  const shipped = defaultGatewayLimits();
  if (shipped.rateLimits === 'off') throw new Error('the shipped limits are off');
  const { address } = shipped.rateLimits.signUp;
  return { ...shipped, rateLimits: { ...shipped.rateLimits, signUp: address ? { address } : {} } };
}

describe('the client address behind a trusted proxy', () => {
  let proxied: TestPlatform;

  beforeAll(async () => {
    // This test is the proxy, on the loopback address.
    proxied = await startTestPlatform(inProcessTransport(), {
      trustProxy: 'loopback',
      limits: withoutSignUpCeiling(),
    });
  }, 60_000);

  afterAll(async () => {
    await proxied?.teardown();
  });

  it('counts each address the proxy forwards apart', async () => {
    const url = proxied.platform.url;
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let i = 0; i < 5; i += 1) {
      const answer = await signUpAs(url, `first-${i}@example.org`, from('203.0.113.1'));
      expect(answer.errors).toBeUndefined();
    }
    const sixth = await signUpAs(url, 'first-5@example.org', from('203.0.113.1'));
    expect(sixth.status).toBe(429);
    const elsewhere = await signUpAs(url, 'second-0@example.org', from('203.0.113.2'));
    expect(elsewhere.errors).toBeUndefined();
  }, 60_000);

  it("counts only an account's failed sign-ins against it", async () => {
    const url = proxied.platform.url;
    const email = 'often@example.org';
    expect(
      (await signUpAs(url, email, { 'x-forwarded-for': '203.0.113.20' })).errors,
    ).toBeUndefined();
    const signIn = (password: string, i: number) =>
      graphql(url, SIGN_IN, {
        variables: { email, password },
        headers: { 'x-forwarded-for': `198.51.100.${100 + i}` },
      });
    // Twelve sign-ins that succeed, more than the account's ten: each gives its point back.
    for (let i = 0; i < 12; i += 1) expect((await signIn(PASSWORD, i)).errors).toBeUndefined();
    // Ten that fail are counted (the realm's lockout answers some of them), the eleventh waits.
    for (let i = 12; i < 22; i += 1) {
      expect((await signIn('a wrong password', i)).errors?.[0]?.extensions?.['code']).not.toBe(
        'RATE_LIMITED',
      );
    }
    const over = await signIn('a wrong password', 22);
    expect(over.status).toBe(429);
    expect(over.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('answers 429 to a refresh over the limit, though the field is nullable', async () => {
    const url = proxied.platform.url;
    const refresh = () =>
      graphql<{ refreshSession: null }>(url, 'mutation { refreshSession { accessToken } }', {
        headers: { 'x-forwarded-for': '203.0.113.30' },
      });
    for (let i = 0; i < 60; i += 1) expect((await refresh()).status).toBe(200);
    const over = await refresh();
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(over.data).toEqual({ refreshSession: null });
  });

  it('without mail asks nobody to verify an address: an e-mail account begins at once', async () => {
    const { token } = await signUpThroughGateway(proxied.platform.url, 'unasked@example.org');
    const as = { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.40' };
    const me = await graphql(proxied.platform.url, '{ me { emailVerified mustVerifyEmail } }', {
      headers: as,
    });
    expect(me.data).toEqual({ me: { emailVerified: false, mustVerifyEmail: false } });
    const started = await graphql<{ startDebate: string }>(
      proxied.platform.url,
      'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }',
      { variables: { settings: settingsOf('Should towns plant more trees?') }, headers: as },
    );
    expect(started.errors).toBeUndefined();
    const again = await graphql(proxied.platform.url, 'mutation { sendVerificationEmail }', {
      headers: as,
    });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_REQUIRED' });
  });

  it('limits live subscriptions per connection', async () => {
    const { token } = await signUpThroughGateway(proxied.platform.url, 'watcher@example.org');
    const started = await graphql<{ startDebate: string }>(
      proxied.platform.url,
      'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }',
      {
        variables: { settings: settingsOf('Should the web have fewer ads?') },
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' },
      },
    );
    const runId = started.data?.startDebate ?? '';
    expect(runId).not.toBe('');
    const client = createClient({
      url: `${proxied.platform.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    const perConnection = defaultGatewayLimits().subscriptionsPerConnection;
    const outcomes: Array<Promise<string>> = [];
    const disposers: Array<() => void> = [];
    try {
      for (let i = 0; i <= perConnection; i += 1) {
        outcomes.push(
          new Promise<string>((resolve) => {
            disposers.push(
              client.subscribe(
                {
                  query: 'subscription ($id: String!) { debateRun(id: $id) { type } }',
                  variables: { id: runId },
                },
                {
                  next: (result) => {
                    const code = result.errors?.[0]?.extensions?.['code'];
                    resolve(typeof code === 'string' ? code : 'watching');
                  },
                  error: (error) => resolve(JSON.stringify(error)),
                  complete: () => resolve('complete'),
                },
              ),
            );
          }),
        );
        // One at a time, so that the last one is the one over the limit.
        await outcomes[i];
      }
      const results = await Promise.all(outcomes);
      expect(results.slice(0, perConnection)).toEqual(Array(perConnection).fill('watching'));
      expect(results[perConnection]).toMatch(/TOO_MANY_SUBSCRIPTIONS/);
    } finally {
      for (const dispose of disposers) dispose();
      await client.dispose();
    }
  }, 60_000);
});

/** The web app's own document of `name`, as codegen wrote it (web/src/gql/graphql.ts). */
async function webAppDocument(name: string): Promise<string> {
  const source = await readFile(new URL('../../web/src/gql/graphql.ts', import.meta.url), 'utf8');
  const match = new RegExp(`export const ${name} = new TypedDocumentString\\(\`([^\`]+)\``).exec(
    source,
  );
  if (!match?.[1]) throw new Error(`${name} is not in web/src/gql/graphql.ts`);
  return match[1];
}

/** What a graphql-ws subscription came to: its payloads, then how it ended. */
interface Followed {
  readonly events: unknown[];
  readonly end: { complete: true } | { error: unknown };
}

/** Follows one subscription over graphql-ws, on a connection of its own, to its end. */
async function follow(
  baseUrl: string,
  payload: { query: string; variables?: Record<string, unknown> },
  accessToken: string,
): Promise<Followed> {
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${accessToken}` },
  });
  const events: unknown[] = [];
  try {
    const end = await new Promise<Followed['end']>((resolve) => {
      client.subscribe(payload, {
        next: (result) => events.push(result),
        error: (error) => resolve({ error }),
        complete: () => resolve({ complete: true }),
      });
    });
    return { events, end };
  } finally {
    await client.dispose();
  }
}

/** A raw WebSocket to the gateway from `address` (a trusted proxy's X-Forwarded-For). */
function socketFrom(baseUrl: string, address: string): WebSocket {
  return new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', {
    headers: { 'x-forwarded-for': address },
  });
}

/** How a raw socket's upgrade went: opened, or refused with an HTTP answer. */
function upgraded(
  socket: WebSocket,
): Promise<{ open: true } | { status: number; retryAfter: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ open: true }));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: response.headers['retry-after'],
          body,
        }),
      );
    });
    socket.once('error', reject);
  });
}

/** The close code and reason of a socket, or 'open' if it is still open after `ms`. */
function closedWithin(
  socket: WebSocket,
  ms: number,
): Promise<{ code: number; reason: string } | 'open'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('open'), ms);
    socket.once('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: reason.toString() });
    });
  });
}

/** Sends `message` as JSON and collects what the server sends back, as JSON, from then on. */
function exchange(socket: WebSocket, message: unknown): unknown[] {
  const received: unknown[] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data))));
  socket.send(JSON.stringify(message));
  return received;
}

/** Resolves when `received` holds a message of `type`, or rejects after `ms`. */
async function awaitMessage(received: unknown[], type: string, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!received.some((message) => (message as { type?: unknown }).type === type)) {
    if (Date.now() > until) throw new Error(`No ${type} in ${JSON.stringify(received)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A raw socket from `address`, initialised with `payload` (none if undefined), and its inbox. */
async function initialised(
  baseUrl: string,
  address: string,
  payload?: unknown,
): Promise<{ socket: WebSocket; received: unknown[] }> {
  const socket = socketFrom(baseUrl, address);
  expect(await upgraded(socket)).toEqual({ open: true });
  const received = exchange(
    socket,
    payload === undefined ? { type: 'connection_init' } : { type: 'connection_init', payload },
  );
  return { socket, received };
}

// The WebSocket of /graphql keeps the HTTP path's limits: the same query limits, the same body
// limit, connections counted in the shared rate limiter, and a deadline for connection_init.
describe('the WebSocket, under the limits of HTTP', () => {
  const initTimeoutMs = 1_000;
  let running: TestPlatform;
  let token: string;
  let runId: string;

  beforeAll(async () => {
    running = await startTestPlatform(inProcessTransport(), {
      // This test is the proxy: each test's connections come from addresses of their own.
      trustProxy: 'loopback',
      limits: {
        ...defaultGatewayLimits(),
        connectionInitTimeoutMs: initTimeoutMs,
        // The connections open at once are tested apart, below: here the ones opened a minute.
        websocketsPerAccount: 100,
      },
    });
    ({ token } = await signUpThroughGateway(running.platform.url, 'socket@example.org'));
    const started = await graphql<{ startDebate: string }>(
      running.platform.url,
      'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }',
      {
        variables: { settings: settingsOf('Should trains be free?') },
        headers: { authorization: `Bearer ${token}` },
      },
    );
    runId = started.data?.startDebate ?? '';
    expect(runId).not.toBe('');
  }, 60_000);

  afterAll(async () => {
    await running?.teardown();
  });

  it('refuses a debateRun of 1,000 aliases before any event, as HTTP refuses a query', async () => {
    const watched = await handled(subjects.generation.run.watch);
    const aliases = Array.from({ length: 1_000 }, (_, i) => `t${i}: text`).join(' ');
    const followed = await follow(
      running.platform.url,
      {
        query: `subscription ($id: String!) { debateRun(id: $id) { ${aliases} } }`,
        variables: { id: runId },
      },
      token,
    );
    expect(followed.events).toEqual([]);
    expect(followed.end).toEqual({
      error: [
        {
          message: 'Aliases limit of 15 exceeded, found 1000.',
          extensions: { code: 'QUERY_TOO_COMPLEX', limit: 'maxAliases', max: 15 },
        },
      ],
    });
    // Nothing was asked of the generation service.
    expect(await handled(subjects.generation.run.watch)).toBe(watched);
  });

  it("streams the web app's own debateRun, from the run's start to its end", async () => {
    const watched = await handled(subjects.generation.run.watch);
    const followed = await follow(
      running.platform.url,
      { query: await webAppDocument('DebateRunDocument'), variables: { id: runId } },
      token,
    );
    expect(followed.end).toEqual({ complete: true });
    const types = followed.events.map(
      (event) => (event as { data?: { debateRun?: { type?: string } } }).data?.debateRun?.type,
    );
    expect(types[0]).toBe('runStarted');
    expect(types).toContain('turnCompleted');
    expect(types.at(-1)).toBe('runCompleted');
    expect(followed.events.filter((event) => 'errors' in (event as object))).toEqual([]);
    expect(await handled(subjects.generation.run.watch)).toBe(watched + 1);
  }, 60_000);

  it('closes the connection on a message over the body limit (1009), as HTTP answers 413', async () => {
    const padding = 'x'.repeat(defaultGatewayLimits().bodyLimitBytes);
    const followed = await follow(
      running.platform.url,
      {
        query: `subscription ($id: String!) { debateRun(id: $id) { type } } # ${padding}`,
        variables: { id: runId },
      },
      token,
    );
    expect(followed.events).toEqual([]);
    expect(followed.end).toEqual({ error: expect.objectContaining({ code: 1009 }) });
  });

  it('closes a socket that sends no connection_init in time with 4408', async () => {
    const socket = socketFrom(running.platform.url, '203.0.113.60');
    expect(await upgraded(socket)).toEqual({ open: true });
    const opened = Date.now();
    expect(await closedWithin(socket, initTimeoutMs * 5)).toEqual({
      code: 4408,
      reason: 'Connection initialisation timeout',
    });
    expect(Date.now() - opened).toBeGreaterThanOrEqual(initTimeoutMs - 50);
  });

  it('refuses the 61st connection of a minute from one address with 429, before the upgrade', async () => {
    const perAddress = 60;
    const sockets = Array.from({ length: perAddress + 1 }, () =>
      socketFrom(running.platform.url, '203.0.113.61'),
    );
    try {
      const outcomes = await Promise.all(sockets.map(upgraded));
      expect(outcomes.filter((outcome) => 'open' in outcome)).toHaveLength(perAddress);
      const refused = outcomes.filter((outcome) => 'status' in outcome);
      expect(refused).toEqual([
        {
          status: 429,
          retryAfter: expect.stringMatching(/^\d+$/),
          body: expect.stringContaining('"code":"RATE_LIMITED"'),
        },
      ]);
      // Another address is counted apart.
      const elsewhere = socketFrom(running.platform.url, '203.0.113.62');
      expect(await upgraded(elsewhere)).toEqual({ open: true });
      elsewhere.close();
    } finally {
      for (const socket of sockets) socket.terminate();
    }
  });

  it('closes the 31st connection of a minute of one account with 1013 before its ack, whatever the address', async () => {
    const perAccount = 30;
    const own = await signUpThroughGateway(running.platform.url, 'many-sockets@example.org');
    const sockets = Array.from({ length: perAccount + 1 }, (_, i) =>
      socketFrom(running.platform.url, `198.51.100.${i + 1}`),
    );
    try {
      const outcomes = await Promise.all(
        sockets.map(async (socket) => {
          await upgraded(socket);
          const received: unknown[] = [];
          socket.on('message', (data) => received.push(JSON.parse(String(data))));
          socket.send(
            JSON.stringify({
              type: 'connection_init',
              payload: { authorization: `Bearer ${own.token}` },
            }),
          );
          return { received, closed: await closedWithin(socket, 1_000) };
        }),
      );
      const admitted = { received: [{ type: 'connection_ack' }], closed: 'open' };
      expect(outcomes.filter((outcome) => outcome.closed === 'open')).toEqual(
        Array(perAccount).fill(admitted),
      );
      // Refused before the ack: nothing was received.
      expect(outcomes.filter((outcome) => outcome.closed !== 'open')).toEqual([
        {
          received: [],
          closed: {
            code: 1013,
            reason: expect.stringMatching(
              /^Too many attempts\. Try again in \d+ (second|minute)s?\.$/,
            ),
          },
        },
      ]);
    } finally {
      for (const socket of sockets) socket.terminate();
    }
  });

  it("acknowledges a connection_init without a payload, as graphql-ws's client sends it", async () => {
    const { socket, received } = await initialised(running.platform.url, '203.0.113.70');
    try {
      // Past the deadline: acknowledged, and not closed for want of an init.
      expect(await closedWithin(socket, initTimeoutMs * 2)).toBe('open');
      expect(received).toEqual([{ type: 'connection_ack' }]);
    } finally {
      socket.terminate();
    }
  });

  it("closes a second connection_init with 4429 before it replaces the first one's token", async () => {
    const other = await signUpThroughGateway(running.platform.url, 'second-init@example.org');
    const { socket, received } = await initialised(running.platform.url, '203.0.113.71', {
      authorization: `Bearer ${token}`,
    });
    try {
      await awaitMessage(received, 'connection_ack');
      socket.send(
        JSON.stringify({
          type: 'connection_init',
          payload: { authorization: `Bearer ${other.token}` },
        }),
      );
      expect(await closedWithin(socket, 2_000)).toEqual({
        code: 4429,
        reason: 'Too many initialisation requests',
      });
      expect(received).toEqual([{ type: 'connection_ack' }]);
    } finally {
      socket.terminate();
    }
  });

  it("refuses a subscribe whose connectionInit extension is another account's", async () => {
    const other = await signUpThroughGateway(running.platform.url, 'extension@example.org');
    const { socket, received } = await initialised(running.platform.url, '203.0.113.72', {
      authorization: `Bearer ${other.token}`,
    });
    try {
      await awaitMessage(received, 'connection_ack');
      // The run is the first account's: as that account, the subscription would stream it.
      socket.send(
        JSON.stringify({
          id: 'as-the-owner',
          type: 'subscribe',
          payload: {
            query: 'subscription ($id: String!) { debateRun(id: $id) { type } }',
            variables: { id: runId },
          },
          extensions: [{ type: 'connectionInit', payload: { authorization: `Bearer ${token}` } }],
        }),
      );
      await awaitMessage(received, 'error');
      expect(received.slice(1)).toEqual([
        {
          type: 'error',
          id: 'as-the-owner',
          payload: [expect.objectContaining({ message: expect.stringMatching(/Forbidden/) })],
        },
      ]);
    } finally {
      socket.terminate();
    }
  });

  it('closes a socket whose subscribe query is not text with 4400', async () => {
    const { socket, received } = await initialised(running.platform.url, '203.0.113.73', {
      authorization: `Bearer ${token}`,
    });
    try {
      await awaitMessage(received, 'connection_ack');
      // A parsed document would be taken as it is, past the validation of the query's text.
      socket.send(
        JSON.stringify({ id: 'ast', type: 'subscribe', payload: { query: { kind: 'Document' } } }),
      );
      expect(await closedWithin(socket, 2_000)).toEqual({
        code: 4400,
        reason: 'Invalid message received',
      });
    } finally {
      socket.terminate();
    }
  });

  it('answers 200 refused subscriptions on one socket, which then streams the next as before', async () => {
    const { socket, received } = await initialised(running.platform.url, '203.0.113.74', {
      authorization: `Bearer ${token}`,
    });
    const aliases = Array.from({ length: 100 }, (_, i) => `t${i}: text`).join(' ');
    try {
      await awaitMessage(received, 'connection_ack');
      for (let i = 0; i < 100; i += 1) {
        // Over a query limit, and refused by the resolver (no such run).
        for (const [query, id] of [
          [`subscription ($id: String!) { debateRun(id: $id) { ${aliases} } }`, runId],
          ['subscription ($id: String!) { debateRun(id: $id) { type } }', 'no-such-run'],
        ] as const) {
          socket.send(
            JSON.stringify({
              id: `${id}-${i}`,
              type: 'subscribe',
              payload: { query, variables: { id } },
            }),
          );
        }
      }
      const until = Date.now() + 10_000;
      const errors = () =>
        received.filter((message) => (message as { type?: unknown }).type === 'error');
      while (errors().length < 200 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(errors()).toHaveLength(200);
      socket.send(
        JSON.stringify({
          id: 'watched',
          type: 'subscribe',
          payload: { query: await webAppDocument('DebateRunDocument'), variables: { id: runId } },
        }),
      );
      await awaitMessage(received, 'complete');
      expect(
        received.filter((message) => (message as { id?: unknown }).id === 'watched').at(-1),
      ).toEqual({
        type: 'complete',
        id: 'watched',
        payload: null,
      });
    } finally {
      socket.terminate();
    }
  }, 30_000);
});

// What connections hold is bounded too: each replica counts the connections open at once per
// address and per account, and gives a place back when its connection closes.
describe('WebSocket connections open at once', () => {
  const perAddress = 3;
  const perAccount = 2;
  let running: TestPlatform;

  beforeAll(async () => {
    running = await startTestPlatform(inProcessTransport(), {
      trustProxy: 'loopback',
      limits: {
        ...defaultGatewayLimits(),
        websocketsPerAddress: perAddress,
        websocketsPerAccount: perAccount,
      },
    });
  }, 60_000);

  afterAll(async () => {
    await running?.teardown();
  });

  /** Upgrades from `address` until one opens, as its closed neighbours free their places. */
  async function openedEventually(address: string): Promise<WebSocket> {
    const until = Date.now() + 5_000;
    for (;;) {
      const socket = socketFrom(running.platform.url, address);
      if ('open' in (await upgraded(socket))) return socket;
      if (Date.now() > until) throw new Error(`No place for ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it(`refuses an address's connection over ${perAddress} open at once with 429, until one closes`, async () => {
    const sockets = Array.from({ length: perAddress }, () =>
      socketFrom(running.platform.url, '203.0.113.90'),
    );
    try {
      for (const socket of sockets) expect(await upgraded(socket)).toEqual({ open: true });
      const over = socketFrom(running.platform.url, '203.0.113.90');
      const refused = await upgraded(over);
      expect(refused).toEqual({
        status: 429,
        retryAfter: undefined,
        body: expect.stringContaining('"code":"TOO_MANY_CONNECTIONS"'),
      });
      expect(JSON.parse((refused as { body: string }).body)).toEqual({
        errors: [
          expect.objectContaining({
            message: `Too many connections open at once: at most ${perAddress} per address. Close one and try again.`,
          }),
        ],
      });
      // Another address is counted apart.
      const elsewhere = socketFrom(running.platform.url, '203.0.113.91');
      expect(await upgraded(elsewhere)).toEqual({ open: true });
      elsewhere.terminate();
      // A closed connection gives its place back.
      sockets[0]?.close();
      sockets.push(await openedEventually('203.0.113.90'));
    } finally {
      for (const socket of sockets) socket.terminate();
    }
  });

  it(`closes an account's connection over ${perAccount} open at once with 1013, by init or by extension`, async () => {
    const { token } = await signUpThroughGateway(running.platform.url, 'open-sockets@example.org');
    const authorization = { authorization: `Bearer ${token}` };
    const opened = await Promise.all(
      Array.from({ length: perAccount }, (_, i) =>
        initialised(running.platform.url, `198.51.100.${i + 1}`, authorization),
      ),
    );
    const sockets = opened.map(({ socket }) => socket);
    try {
      for (const { received } of opened) await awaitMessage(received, 'connection_ack');
      const refusal = {
        code: 1013,
        reason: `Too many connections open at once: at most ${perAccount} per account. Close one and try again.`,
      };
      // By its connection_init: refused before the ack.
      const byInit = await initialised(running.platform.url, '198.51.100.50', authorization);
      sockets.push(byInit.socket);
      expect(await closedWithin(byInit.socket, 2_000)).toEqual(refusal);
      expect(byInit.received).toEqual([]);
      // By a subscribe's connectionInit extension, on a connection begun without a token.
      const byExtension = await initialised(running.platform.url, '198.51.100.51');
      sockets.push(byExtension.socket);
      await awaitMessage(byExtension.received, 'connection_ack');
      byExtension.socket.send(
        JSON.stringify({
          id: 'late-token',
          type: 'subscribe',
          payload: {
            query: 'subscription ($id: String!) { debateRun(id: $id) { type } }',
            variables: { id: 'x' },
          },
          extensions: [{ type: 'connectionInit', payload: authorization }],
        }),
      );
      expect(await closedWithin(byExtension.socket, 2_000)).toEqual(refusal);
      // A closed connection gives the account its place back.
      const closed = closedWithin(sockets[0] as WebSocket, 2_000);
      sockets[0]?.close();
      await closed;
      const until = Date.now() + 5_000;
      for (;;) {
        const again = await initialised(running.platform.url, '198.51.100.52', authorization);
        sockets.push(again.socket);
        if ((await closedWithin(again.socket, 300)) === 'open') {
          expect(again.received).toEqual([{ type: 'connection_ack' }]);
          break;
        }
        if (Date.now() > until) throw new Error('The closed connection kept its place');
      }
    } finally {
      for (const socket of sockets) socket.terminate();
    }
  });
});
