import { InvalidTokenError, TokenVerifier } from '@debate/gateway';
import { inProcessTransport } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPair, SignJWT } from 'jose';
import { graphql } from './graphql-client.js';
import { startTestPlatform, type TestPlatform } from './test-platform.js';

const SESSION = 'accessToken expiresIn user { id email displayName photoURL isPro createdAt }';
const SIGN_UP = `mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password) { ${SESSION} } }`;
const SIGN_IN = `mutation ($email: String!, $password: String!) { signIn(email: $email, password: $password) { ${SESSION} } }`;
const ME = '{ me { id email isPro createdAt } }';

interface SessionData {
  accessToken: string;
  expiresIn: number;
  user: { id: string; email: string; isPro: boolean; createdAt: string | null };
}

// Single-process mode serves the embedded Keycloak-compatible issuer at /auth, and the gateway
// signs users up and in through the identity service. What a sign-in answers (refusals, renewal,
// sign-out, tokens) is the sign-in suite's, run against this issuer and the real Keycloak alike
// (sign-in-suite.ts); here, what single-process mode adds.
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

  it('signs up through GraphQL, then signs in through it only: the realm takes no password grant past the gateway', async () => {
    const signedUp = await graphql<{ signUp: SessionData }>(url, SIGN_UP, {
      variables: { email: 'lin@example.org', password: 'a fine password' },
    });
    expect(signedUp.errors).toBeUndefined();
    expect(signedUp.data?.signUp.user).toMatchObject({ email: 'lin@example.org', isPro: false });
    // The refresh token is only in the cookie, which scripts cannot read.
    expect(JSON.stringify(signedUp.data)).not.toContain('refresh');
    const cookie = signedUp.setCookie.find((value) => value.startsWith('debate_session='));
    expect(cookie).toMatch(/HttpOnly/);
    // Plain HTTP outside production: not Secure, or a browser on a LAN address would drop it
    // (the gateway's session.cookies.spec.ts has HTTPS and production).
    expect(cookie).not.toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/graphql/);

    // Straight to the realm at /auth with the web client: refused, so the gateway's sign-in
    // limits cannot be gone around.
    expect(
      await token({
        grant_type: 'password',
        client_id: 'debate-web',
        username: 'lin@example.org',
        password: 'a fine password',
      }),
    ).toEqual({
      error: 'unauthorized_client',
      error_description: 'Client not allowed for direct access grants',
    });
    const signedIn = await graphql<{ signIn: SessionData }>(url, SIGN_IN, {
      variables: { email: 'lin@example.org', password: 'a fine password' },
    });
    const me = await graphql<{ me: SessionData['user'] }>(url, ME, {
      headers: { authorization: `Bearer ${signedIn.data?.signIn.accessToken}` },
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

  it('refuses a malformed address before it reaches the realm', async () => {
    const malformed = await graphql(url, SIGN_IN, {
      variables: { email: 'not an address', password: 'whatever it is' },
    });
    expect(malformed.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });
});
