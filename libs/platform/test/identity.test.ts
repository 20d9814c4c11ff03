import { InvalidTokenError, TokenVerifier } from '@debate/gateway';
import { inProcessTransport } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPair, SignJWT } from 'jose';
import { graphql } from './graphql-client.js';
import { startTestPlatform, type TestPlatform } from './test-platform.js';

const SESSION = 'accessToken expiresIn user { id email displayName photoURL isPro createdAt }';
const SIGN_UP = `mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password) { ${SESSION} } }`;
const SIGN_IN = `mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { ${SESSION} } }`;
const REFRESH = `mutation { refreshSession { ${SESSION} } }`;
const ME = '{ me { id email isPro createdAt } }';

interface SessionData {
  accessToken: string;
  expiresIn: number;
  user: { id: string; email: string; isPro: boolean; createdAt: string | null };
}

/** The `name=value` of a Set-Cookie header, for sending it back. */
function cookiePair(setCookie: readonly string[], name: string): string {
  const header = setCookie.find((value) => value.startsWith(`${name}=`));
  if (!header) throw new Error(`no ${name} cookie in ${JSON.stringify(setCookie)}`);
  return header.split(';')[0] ?? '';
}

// Single-process mode serves the embedded Keycloak-compatible issuer at /auth, and the gateway
// signs users up and in through the identity service.
describe('sign-in in single-process mode', () => {
  let running: TestPlatform;
  let url: string;
  let realm: string;

  beforeAll(async () => {
    running = await startTestPlatform(inProcessTransport());
    url = running.platform.url;
    realm = `${url}/auth/realms/debate`;
  });

  afterAll(async () => {
    await running?.teardown();
  });

  const token = async (fields: Record<string, string>) => {
    const response = await fetch(`${realm}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    return (await response.json()) as Record<string, string>;
  };

  it('names its own address as the issuer', async () => {
    const discovery = (await (
      await fetch(`${realm}/.well-known/openid-configuration`)
    ).json()) as Record<string, string>;
    expect(discovery['issuer']).toBe(realm);
  });

  it('refuses to create a user in the realm without a service token', async () => {
    const response = await fetch(`${url}/auth/admin/realms/debate/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'intruder@example.org',
        enabled: true,
        credentials: [{ type: 'password', value: 'a fine password', temporary: false }],
      }),
    });
    expect(response.status).toBe(401);
  });

  it('signs up through GraphQL; the realm then gives that user tokens the gateway accepts', async () => {
    const signedUp = await graphql<{ signUp: SessionData }>(url, SIGN_UP, {
      variables: { email: 'lin@example.org', password: 'a fine password' },
    });
    expect(signedUp.errors).toBeUndefined();
    expect(signedUp.data?.signUp.user).toMatchObject({ email: 'lin@example.org', isPro: false });
    // The refresh token is only in the cookie, which scripts cannot read.
    expect(JSON.stringify(signedUp.data)).not.toContain('refresh');
    const cookie = signedUp.setCookie.find((value) => value.startsWith('debate_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/graphql/);

    const direct = await token({
      grant_type: 'password',
      client_id: 'debate-web',
      username: 'lin@example.org',
      password: 'a fine password',
    });
    const me = await graphql<{ me: SessionData['user'] }>(url, ME, {
      headers: { authorization: `Bearer ${direct['access_token']}` },
    });
    expect(me.errors).toBeUndefined();
    expect(me.data?.me).toEqual({
      id: signedUp.data?.signUp.user.id,
      email: 'lin@example.org',
      isPro: false,
      createdAt: signedUp.data?.signUp.user.createdAt,
    });
  });

  it('refuses a token signed with another key, and an operation without a token', async () => {
    const forged = await new SignJWT({ typ: 'Bearer', email: 'lin@example.org' })
      .setProtectedHeader({ alg: 'RS256', kid: 'not-the-realm-key' })
      .setIssuer(realm)
      .setSubject('someone')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign((await generateKeyPair('RS256')).privateKey);
    await expect(new TokenVerifier({ issuer: realm }).verify(forged)).rejects.toBeInstanceOf(
      InvalidTokenError,
    );
    const refused = await graphql(url, ME, { headers: { authorization: `Bearer ${forged}` } });
    expect(refused.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
    const anonymous = await graphql(url, ME);
    expect(anonymous.errors?.[0]).toMatchObject({
      message: 'Sign in required',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it("shows the realm's reasons for refusing a sign-in or a sign-up", async () => {
    const wrong = await graphql(url, SIGN_IN, {
      variables: { email: 'lin@example.org', password: 'not my password' },
    });
    expect(wrong.errors?.[0]).toMatchObject({
      message: 'Invalid user credentials',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect(wrong.setCookie).toEqual([]);
    const taken = await graphql(url, SIGN_UP, {
      variables: { email: 'lin@example.org', password: 'another password' },
    });
    expect(taken.errors?.[0]?.message).toBe('User exists with same email');
    const weak = await graphql(url, SIGN_UP, {
      variables: { email: 'mo@example.org', password: 'short' },
    });
    expect(weak.errors?.[0]).toMatchObject({
      message: 'Invalid password: minimum length 8.',
      extensions: { code: 'PASSWORD_POLICY' },
    });
    const malformed = await graphql(url, SIGN_IN, {
      variables: { email: 'not an address', password: 'whatever it is' },
    });
    expect(malformed.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('renews the session from the cookie once per cookie, and signs out', async () => {
    const signedIn = await graphql<{ signIn: SessionData }>(url, SIGN_IN, {
      variables: { email: 'lin@example.org', password: 'a fine password' },
    });
    const first = cookiePair(signedIn.setCookie, 'debate_session');
    const renewed = await graphql<{ refreshSession: SessionData | null }>(url, REFRESH, {
      headers: { cookie: first },
    });
    expect(renewed.data?.refreshSession?.user.email).toBe('lin@example.org');
    const second = cookiePair(renewed.setCookie, 'debate_session');
    expect(second).not.toBe(first);

    const replayed = await graphql<{ refreshSession: null }>(url, REFRESH, {
      headers: { cookie: first },
    });
    expect(replayed.data?.refreshSession).toBeNull();
    const none = await graphql<{ refreshSession: null }>(url, REFRESH);
    expect(none.data?.refreshSession).toBeNull();

    const signedOut = await graphql<{ signOut: boolean }>(url, 'mutation { signOut }', {
      headers: { cookie: second },
    });
    expect(signedOut.data?.signOut).toBe(true);
    expect(signedOut.setCookie.find((value) => value.startsWith('debate_session='))).toMatch(
      /Expires=Thu, 01 Jan 1970/,
    );
    const afterSignOut = await graphql<{ refreshSession: null }>(url, REFRESH, {
      headers: { cookie: second },
    });
    expect(afterSignOut.data?.refreshSession).toBeNull();
  });
});
