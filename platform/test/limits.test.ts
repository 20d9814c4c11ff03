import { subjects } from '@debate/contracts';
import { defaultGatewayLimits, type GatewayLimits } from '@debate/gateway';
import { inProcessTransport, processRegistry } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
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
