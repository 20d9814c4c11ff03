import { start } from '@debate/embedded-mongo';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createRemoteJWKSet,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import mongoose from 'mongoose';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedIssuer, serveEmbeddedIssuer, type ServedIssuer } from './index.js';

const SECRET = 'test-identity-secret';

describe('the embedded Keycloak-compatible issuer', () => {
  let dataDir: string;
  let store: Awaited<ReturnType<typeof start>>;
  let running: ServedIssuer;
  let base: string;
  let realmUrl: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'issuer-'));
    store = await start({ port: 0, dbPath: join(dataDir, 'mongo') });
    running = await serveEmbeddedIssuer({
      mongoUrl: store.uri,
      dataDir,
      serviceSecret: SECRET,
      port: 0,
      host: '127.0.0.1',
    });
    ({ baseUrl: base, realmUrl } = running);
  });

  afterAll(async () => {
    await running?.close();
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

  async function token(fields: Record<string, string>) {
    const response = await fetch(`${realmUrl}/protocol/openid-connect/token`, form(fields));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** The identity service's client, authenticated by its secret. */
  const service = { client_id: 'identity-service', client_secret: SECRET };

  /** The e-mail form's grant for `username` (the identity service's confidential client). */
  const passwordGrant = (username: string, password: string) =>
    token({ grant_type: 'password', ...service, username, password });

  async function serviceToken(): Promise<string> {
    const { body } = await token({
      grant_type: 'client_credentials',
      client_id: 'identity-service',
      client_secret: SECRET,
    });
    return body['access_token'] as string;
  }

  async function createUser(email: string, password: string, accessToken?: string) {
    return fetch(`${base}/admin/realms/debate/users`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: JSON.stringify({
        email,
        username: email,
        enabled: true,
        credentials: [{ type: 'password', value: password, temporary: false }],
      }),
    });
  }

  it('publishes its discovery document and keys under Keycloak paths', async () => {
    const discovery = (await (
      await fetch(`${realmUrl}/.well-known/openid-configuration`)
    ).json()) as Record<string, string>;
    expect(discovery['issuer']).toBe(realmUrl);
    expect(discovery['jwks_uri']).toBe(`${realmUrl}/protocol/openid-connect/certs`);
    const jwks = (await (await fetch(discovery['jwks_uri'] as string)).json()) as {
      keys: Array<Record<string, string>>;
    };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('refuses to create users without a service token, or with one signed by another key', async () => {
    expect((await createUser('nobody@example.org', 'long enough')).status).toBe(401);
    const forged = await new SignJWT({
      resource_access: { 'realm-management': { roles: ['manage-users'] } },
    })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(realmUrl)
      .setExpirationTime('5m')
      .sign((await generateKeyPair('RS256')).privateKey);
    expect((await createUser('nobody@example.org', 'long enough', forged)).status).toBe(401);
  });

  it('creates a user with the service token, then signs it in with the password grant', async () => {
    const created = await createUser('ada@example.org', 'correct horse', await serviceToken());
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(
      /\/admin\/realms\/debate\/users\/[0-9a-f-]{36}$/,
    );

    const { status, body } = await passwordGrant('Ada@Example.org', 'correct horse');
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    const { payload } = await jwtVerify(
      body['access_token'] as string,
      createRemoteJWKSet(new URL(`${realmUrl}/protocol/openid-connect/certs`)),
      { issuer: realmUrl },
    );
    expect(payload).toMatchObject({
      email: 'ada@example.org',
      preferred_username: 'ada@example.org',
      // The realm file's audience mapper on the client, then Keycloak's own audience.
      aud: ['debate-gateway', 'account'],
      azp: 'identity-service',
      typ: 'Bearer',
      realm_access: { roles: expect.arrayContaining(['user']) },
    });

    const userinfo = await fetch(`${realmUrl}/protocol/openid-connect/userinfo`, {
      headers: { authorization: `Bearer ${body['access_token'] as string}` },
    });
    expect(await userinfo.json()).toMatchObject({ sub: payload.sub, email: 'ada@example.org' });
  });

  it('refuses the password grant to the public web client, and to a wrong or missing secret', async () => {
    await createUser('direct@example.org', 'correct horse', await serviceToken());
    const grant = {
      grant_type: 'password',
      username: 'direct@example.org',
      password: 'correct horse',
    };
    expect(await token({ ...grant, client_id: 'debate-web' })).toEqual({
      status: 400,
      body: {
        error: 'unauthorized_client',
        error_description: 'Client not allowed for direct access grants',
      },
    });
    const unauthenticated = {
      status: 401,
      body: {
        error: 'unauthorized_client',
        error_description: 'Invalid client or Invalid client credentials',
      },
    };
    expect(
      await token({ ...grant, client_id: 'identity-service', client_secret: 'not the secret' }),
    ).toEqual(unauthenticated);
    expect(await token({ ...grant, client_id: 'identity-service' })).toEqual(unauthenticated);
    expect(await token({ ...grant, client_id: 'account-console' })).toEqual(unauthenticated);
    expect((await token({ ...grant, ...service })).status).toBe(200);
  });

  it("marks the service account's token as Keycloak does: by its user name", async () => {
    expect(decodeJwt(await serviceToken())).toMatchObject({
      typ: 'Bearer',
      azp: 'identity-service',
      // The client's audience mapper applies to every token of the client, this one too: the
      // gateway refuses it as a service account's (gateway/src/auth/token-verifier.ts).
      aud: ['debate-gateway', 'realm-management'],
      preferred_username: 'service-account-identity-service',
      email_verified: false,
    });
  });

  it('opens the authorization-code flow only for a client with the standard flow', async () => {
    const authorize = (clientId: string) =>
      fetch(
        `${realmUrl}/protocol/openid-connect/auth?${new URLSearchParams({
          client_id: clientId,
          redirect_uri: `${new URL(base).origin}/login`,
          response_type: 'code',
          code_challenge: 'x'.repeat(43),
          code_challenge_method: 'S256',
          kc_idp_hint: 'google',
          state: 'st',
        })}`,
        { redirect: 'manual' },
      );
    // The web client: on to the provider, or back to the app (no Google app configured here).
    const web = await authorize('debate-web');
    expect(web.status).toBe(302);
    expect(web.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\?/);
    // The identity service's client has the standard flow off in the realm file.
    const service = await authorize('identity-service');
    expect(service.status).toBe(400);
    expect(await service.text()).toContain(
      'Client is not allowed to initiate browser login with given response_type. Standard flow is disabled for the client.',
    );
    expect((await authorize('account-console')).status).toBe(401);
  });

  it('refuses a taken e-mail with 409 and a weak password with the policy message', async () => {
    const service = await serviceToken();
    await createUser('taken@example.org', 'first password', service);
    const again = await createUser('TAKEN@example.org', 'second password', service);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ errorMessage: 'User exists with same email' });
    const weak = await createUser('weak@example.org', 'tiny7', service);
    expect(weak.status).toBe(400);
    expect(await weak.json()).toEqual({
      error: 'invalidPasswordMinLengthMessage',
      error_description: 'Invalid password: minimum length 8.',
    });
    const same = await createUser('same@example.org', 'same@example.org', service);
    expect(((await same.json()) as { error: string }).error).toBe('invalidPasswordNotEmailMessage');
    // One of the 10,000 most common passwords (deploy/keycloak/common-passwords.txt), in any
    // case, checked before the length as Keycloak does ('short' is one).
    for (const common of ['sunshine', 'Password1', 'short']) {
      const blacklisted = await createUser('common@example.org', common, service);
      expect(blacklisted.status).toBe(400);
      expect(await blacklisted.json()).toEqual({
        error: 'invalidPasswordBlacklistedMessage',
        error_description: 'Invalid password: password is not allowed.',
      });
    }
    expect((await createUser('common@example.org', 'sunshine over the sea', service)).status).toBe(
      201,
    );
  });

  it('rotates refresh tokens, refuses a replayed one, and revokes on logout', async () => {
    await createUser('grace@example.org', 'hopper hopper', await serviceToken());
    const signIn = await passwordGrant('grace@example.org', 'hopper hopper');
    const first = signIn.body['refresh_token'] as string;
    // Like Keycloak's, a JWT naming the client it was issued to.
    expect(decodeJwt(first)).toMatchObject({ typ: 'Refresh', azp: 'identity-service' });
    // Only that client renews it, authenticated.
    for (const other of [{ client_id: 'debate-web' }, { client_id: 'identity-service' }]) {
      expect(
        (await token({ grant_type: 'refresh_token', ...other, refresh_token: first })).status,
      ).not.toBe(200);
    }
    const refreshed = await token({
      grant_type: 'refresh_token',
      ...service,
      refresh_token: first,
    });
    expect(refreshed.status).toBe(200);
    const second = refreshed.body['refresh_token'] as string;
    expect(second).not.toBe(first);
    expect(decodeJwt(refreshed.body['access_token'] as string).sid).toBe(
      signIn.body['session_state'],
    );

    const replay = await token({
      grant_type: 'refresh_token',
      ...service,
      refresh_token: first,
    });
    // As Keycloak answers (refreshTokenMaxReuse 0): the replay ends the session.
    expect(replay).toEqual({
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description: 'Maximum allowed refresh token reuse exceeded',
      },
    });
    expect(await token({ grant_type: 'refresh_token', ...service, refresh_token: second })).toEqual(
      {
        status: 400,
        body: { error: 'invalid_grant', error_description: "Session doesn't have required client" },
      },
    );

    const again = await passwordGrant('grace@example.org', 'hopper hopper');
    const current = again.body['refresh_token'] as string;
    const logout = () =>
      fetch(
        `${realmUrl}/protocol/openid-connect/logout`,
        form({ ...service, refresh_token: current }),
      );
    expect((await logout()).status).toBe(204);
    expect((await logout()).status).toBe(204);
    expect(
      await token({ grant_type: 'refresh_token', ...service, refresh_token: current }),
    ).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Session not active' },
    });
  });

  it('locks an account for a while after repeated wrong passwords', async () => {
    await createUser('lock@example.org', 'right password', await serviceToken());
    const attempt = (password: string) => passwordGrant('lock@example.org', password);
    const refused = {
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid user credentials' },
    };
    for (let i = 0; i < 5; i += 1) {
      expect(await attempt('wrong password')).toEqual(refused);
    }
    // Keycloak does not say the account is locked: the right password is refused like a wrong one.
    expect(await attempt('right password')).toEqual(refused);
  });

  it("says 'Account disabled' to a disabled account's right password only", async () => {
    await createUser('off@example.org', 'right password', await serviceToken());
    const connection = await mongoose
      .createConnection(store.uri, { dbName: 'keycloak' })
      .asPromise();
    try {
      await connection
        .collection('realm_users')
        .updateOne({ email: 'off@example.org' }, { $set: { enabled: false } });
    } finally {
      await connection.close();
    }
    const attempt = (password: string) => passwordGrant('off@example.org', password);
    expect(await attempt('right password')).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Account disabled' },
    });
    expect((await attempt('wrong password')).body['error_description']).toBe(
      'Invalid user credentials',
    );
  });

  it('locks an account at once after two failures less than a second apart', async () => {
    await createUser('quick@example.org', 'right password', await serviceToken());
    const attempt = (password: string) => passwordGrant('quick@example.org', password);
    await attempt('wrong once');
    await attempt('wrong twice');
    expect((await attempt('right password')).body['error_description']).toBe(
      'Invalid user credentials',
    );
  });

  it('locks an account at the fifth failure a few seconds apart, not the fourth, for 60 s', async () => {
    await createUser('five@example.org', 'right password', await serviceToken());
    let clock = Date.now();
    const slow = await createEmbeddedIssuer({
      mongoUrl: store.uri,
      dataDir,
      issuerUrl: () => realmUrl,
      serviceSecret: SECRET,
      now: () => clock,
    });
    const attempt = (password: string) => {
      clock += 2_000; // further apart than the quick-login check's second
      return slow.issuer.tokens
        .passwordGrant('identity-service', SECRET, 'five@example.org', password)
        .then(
          () => 'signed in',
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
    };
    try {
      for (let i = 0; i < 4; i += 1)
        expect(await attempt('wrong')).toBe('Invalid user credentials');
      expect(await attempt('right password')).toBe('signed in');
      for (let i = 0; i < 5; i += 1) await attempt('wrong');
      expect(await attempt('right password')).toBe('Invalid user credentials');
      clock += 60_000;
      expect(await attempt('right password')).toBe('signed in');
    } finally {
      await slow.close();
    }
  });

  it('does not tell an unknown user from a wrong password', async () => {
    const unknown = await passwordGrant('ghost@example.org', 'whatever it is');
    expect(unknown).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Invalid user credentials' },
    });
  });

  it('keeps its signing key across restarts', async () => {
    const again = await createEmbeddedIssuer({
      mongoUrl: store.uri,
      dataDir,
      issuerUrl: () => realmUrl,
      serviceSecret: SECRET,
    });
    try {
      expect(again.issuer.jwks()).toEqual(running.issuer.jwks());
      const other = await exportJWK((await generateKeyPair('RS256')).publicKey);
      expect(again.issuer.jwks().keys[0]).not.toMatchObject({ n: other.n });
    } finally {
      await again.close();
    }
  });
});
