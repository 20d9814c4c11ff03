import { inProcessTransport } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions } from 'fastify';
import { createGateway } from '../create-gateway.js';
import type { GatewayOptions } from '../gateway.options.js';
import { SESSION_COOKIE } from './session.cookies.js';

// The proxy in front of the gateway, as TRUST_PROXY names it; anyone else is a client.
const PROXY = '10.0.0.7';
const CLIENT = '203.0.113.9';

/**
 * The session cookie's Set-Cookie in the answer to signing out from `remoteAddress` with
 * `headers`: signing out clears the cookie with the flags it is set with, and needs no service.
 */
async function sessionCookieOf(
  gateway: NestFastifyApplication,
  remoteAddress: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const request: InjectOptions = {
    method: 'POST',
    url: '/graphql',
    remoteAddress,
    headers,
    payload: { query: 'mutation { signOut }' },
  };
  const response = await gateway.getHttpAdapter().getInstance().inject(request);
  expect(response.json()).toEqual({ data: { signOut: true } });
  const setCookie = [response.headers['set-cookie'] ?? []].flat();
  const cookie = setCookie.find((value) => value.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(setCookie)}`);
  return cookie;
}

async function startGateway(options: Partial<GatewayOptions>): Promise<NestFastifyApplication> {
  const gateway = await createGateway({
    transport: inProcessTransport(),
    logLevel: 'silent',
    ...options,
  });
  await gateway.init();
  return gateway;
}

const secure = /;\s*Secure(;|$)/i;

describe('the session cookie in development (no NODE_ENV=production)', () => {
  let gateway: NestFastifyApplication;

  beforeAll(async () => {
    gateway = await startGateway({ trustProxy: PROXY });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('is not Secure over plain HTTP, so a browser keeps it on any host', async () => {
    const cookie = await sessionCookieOf(gateway, CLIENT);

    expect(cookie).not.toMatch(secure);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/graphql/);
  });

  it('is Secure when the trusted proxy says the browser came over HTTPS', async () => {
    expect(await sessionCookieOf(gateway, PROXY, { 'x-forwarded-proto': 'https' })).toMatch(secure);
    expect(await sessionCookieOf(gateway, PROXY, { 'x-forwarded-proto': 'http' })).not.toMatch(
      secure,
    );
  });

  it('ignores X-Forwarded-Proto from a peer that is not the trusted proxy', async () => {
    expect(await sessionCookieOf(gateway, CLIENT, { 'x-forwarded-proto': 'https' })).not.toMatch(
      secure,
    );
  });
});

describe('the session cookie without a trusted proxy', () => {
  let gateway: NestFastifyApplication;

  beforeAll(async () => {
    gateway = await startGateway({});
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it("believes nobody's X-Forwarded-Proto", async () => {
    expect(await sessionCookieOf(gateway, PROXY, { 'x-forwarded-proto': 'https' })).not.toMatch(
      secure,
    );
  });
});

describe('the session cookie in production (NODE_ENV=production)', () => {
  let gateway: NestFastifyApplication;

  beforeAll(async () => {
    gateway = await startGateway({ trustProxy: PROXY, alwaysSecureCookies: true });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('is always Secure, even over plain HTTP or when the proxy says http', async () => {
    expect(await sessionCookieOf(gateway, CLIENT)).toMatch(secure);
    expect(await sessionCookieOf(gateway, PROXY, { 'x-forwarded-proto': 'http' })).toMatch(secure);
  });
});
