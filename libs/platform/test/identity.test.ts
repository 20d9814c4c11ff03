import { start as startStore } from '@debate/embedded-mongo';
import { InvalidTokenError, TokenVerifier } from '@debate/gateway';
import { inProcessTransport } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPair, SignJWT } from 'jose';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningPlatform, startPlatform } from '../src/start-platform.js';

// Single-process mode serves the embedded Keycloak-compatible issuer at /auth.
describe('sign-in in single-process mode', () => {
  let dataDir: string;
  let store: Awaited<ReturnType<typeof startStore>>;
  let platform: RunningPlatform;
  let realm: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'platform-identity-'));
    store = await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
    platform = await startPlatform({
      transport: inProcessTransport(),
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      mongoUrl: store.uri,
      dataDir,
    });
    realm = `${platform.url}/auth/realms/debate`;
  });

  afterAll(async () => {
    await platform?.stop();
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const createUser = (accessToken?: string) =>
    fetch(`${platform.url}/auth/admin/realms/debate/users`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: JSON.stringify({
        email: 'lin@example.org',
        enabled: true,
        credentials: [{ type: 'password', value: 'a fine password', temporary: false }],
      }),
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

  it('refuses to create a user without a service token', async () => {
    expect((await createUser()).status).toBe(401);
  });

  it('issues tokens the gateway verifies, and the gateway refuses a token of another key', async () => {
    const secret = readFileSync(join(dataDir, 'issuer', 'identity-service.secret'), 'utf8');
    const service = await token({
      grant_type: 'client_credentials',
      client_id: 'identity-service',
      client_secret: secret,
    });
    expect((await createUser(service['access_token'])).status).toBe(201);
    const signedIn = await token({
      grant_type: 'password',
      client_id: 'debate-web',
      username: 'lin@example.org',
      password: 'a fine password',
    });

    const verifier = new TokenVerifier({ issuer: realm });
    await expect(verifier.verify(signedIn['access_token'] as string)).resolves.toMatchObject({
      email: 'lin@example.org',
    });
    const forged = await new SignJWT({ typ: 'Bearer', email: 'lin@example.org' })
      .setProtectedHeader({ alg: 'RS256', kid: 'not-the-realm-key' })
      .setIssuer(realm)
      .setSubject('someone')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign((await generateKeyPair('RS256')).privateKey);
    await expect(verifier.verify(forged)).rejects.toBeInstanceOf(InvalidTokenError);
  });
});
