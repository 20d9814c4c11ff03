import { start } from '@debate/embedded-mongo';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeJwt } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  brokerEnvSchema,
  brokersFrom,
  serveEmbeddedIssuer,
  type ServedIssuer,
} from '@debate/embedded-keycloak';
import {
  type FakeAccount,
  type FakeProviders,
  startFakeProviders,
} from '@debate/embedded-keycloak/testing';
import { KeycloakClient, KeycloakError } from '../src/keycloak/keycloak.client.js';

const WEB = 'http://127.0.0.1:3999';

/** Follows redirects by hand (as a browser would), until one leaves for `stopAt`. */
async function browse(url: string, stopAt: string): Promise<URL> {
  let next = url;
  for (let hop = 0; hop < 10; hop += 1) {
    if (next.startsWith(stopAt)) return new URL(next);
    const response = await fetch(next, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status !== 302 || !location) {
      throw new Error(`${next} answered ${response.status}: ${await response.text()}`);
    }
    next = new URL(location, next).toString();
  }
  throw new Error('too many redirects');
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

// Google and GitHub sign-in through the embedded realm, against local fakes of both providers.
describe('brokered sign-in through the embedded issuer', () => {
  let dataDir: string;
  let store: Awaited<ReturnType<typeof start>>;
  let providers: FakeProviders;
  let issuer: ServedIssuer;
  let keycloak: KeycloakClient;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'broker-'));
    store = await start({ port: 0, dbPath: join(dataDir, 'mongo') });
    providers = await startFakeProviders();
    // Google only: GitHub's credentials are not configured.
    const env = brokerEnvSchema.parse({
      ...providers.env(),
      GITHUB_CLIENT_ID: '',
      GITHUB_CLIENT_SECRET: '',
    });
    issuer = await serveEmbeddedIssuer({
      mongoUrl: store.uri,
      dataDir,
      port: 0,
      host: '127.0.0.1',
      brokers: brokersFrom(env),
      webOrigins: [WEB],
    });
    keycloak = new KeycloakClient({
      baseUrl: issuer.baseUrl,
      realm: 'debate',
      webClientId: 'debate-web',
      serviceClientId: 'identity-service',
      serviceSecret: issuer.serviceSecret,
    });
  });

  afterAll(async () => {
    await issuer?.close();
    await providers?.close();
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const redirectUri = `${WEB}/login?provider=google`;
  const begin = (provider: 'google' | 'github', challenge: string, state = 'client-state') =>
    keycloak.authorizationUrl({ provider, redirectUri, state, codeChallenge: challenge });

  it('signs in with Google: a code for the web client, then tokens naming the Google profile', async () => {
    const { verifier, challenge } = pkce();
    const back = await browse(begin('google', challenge), WEB);
    expect(back.searchParams.get('state')).toBe('client-state');
    expect(back.searchParams.get('iss')).toBe(issuer.realmUrl);
    const code = back.searchParams.get('code') ?? '';
    expect(providers.google.redeemed).toHaveLength(1);

    const tokens = await keycloak.codeGrant(code, verifier, redirectUri);
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      iss: issuer.realmUrl,
      email: 'grace@gmail.example',
      name: 'Grace Hopper',
      picture: 'https://lh3.googleusercontent.example/grace.png',
      azp: 'debate-web',
    });
    // The code is single use.
    await expect(keycloak.codeGrant(code, verifier, redirectUri)).rejects.toMatchObject({
      status: 400,
      error: 'invalid_grant',
    });
  });

  it('signs the same Google account in to the same realm user again', async () => {
    const first = pkce();
    const one = await browse(begin('google', first.challenge), WEB);
    const a = await keycloak.codeGrant(
      one.searchParams.get('code') ?? '',
      first.verifier,
      redirectUri,
    );
    const second = pkce();
    const two = await browse(begin('google', second.challenge), WEB);
    const b = await keycloak.codeGrant(
      two.searchParams.get('code') ?? '',
      second.verifier,
      redirectUri,
    );
    expect(decodeJwt(a.access_token).sub).toBe(decodeJwt(b.access_token).sub);
  });

  it('refuses a code with the wrong PKCE verifier or another redirect URI', async () => {
    const { verifier, challenge } = pkce();
    const back = await browse(begin('google', challenge), WEB);
    const code = back.searchParams.get('code') ?? '';
    const wrong = await keycloak.codeGrant(code, pkce().verifier, redirectUri).catch((e) => e);
    expect(wrong).toBeInstanceOf(KeycloakError);
    expect((wrong as KeycloakError).description).toMatch(/PKCE/);

    const other = pkce();
    const again = await browse(begin('google', other.challenge), WEB);
    const elsewhere = await keycloak
      .codeGrant(again.searchParams.get('code') ?? '', other.verifier, `${WEB}/elsewhere`)
      .catch((e) => e);
    expect((elsewhere as KeycloakError).description).toBe('Incorrect redirect_uri');
    expect(verifier).not.toBe(other.verifier);
  });

  it('sends the browser back with a reason when a provider is not configured', async () => {
    const back = await browse(begin('github', pkce().challenge), WEB);
    expect(back.searchParams.get('code')).toBeNull();
    expect(back.searchParams.get('error')).toBe('temporarily_unavailable');
    expect(back.searchParams.get('error_description')).toMatch(
      /^GitHub sign-in is not configured on this server/,
    );
    expect(back.searchParams.get('state')).toBe('client-state');
  });

  it('reports a refusal at the provider, and never redirects to a foreign origin', async () => {
    providers.google.account = null;
    try {
      const back = await browse(begin('google', pkce().challenge), WEB);
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('error_description')).toMatch(/^Google did not sign you in/);
    } finally {
      providers.google.account = {
        subject: '108842410000000000001',
        email: 'grace@gmail.example',
        emailVerified: true,
        name: 'Grace Hopper',
        picture: 'https://lh3.googleusercontent.example/grace.png',
      };
    }
    const foreign = new URL(begin('google', pkce().challenge));
    foreign.searchParams.set('redirect_uri', 'https://attacker.example/steal');
    const response = await fetch(foreign, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  /** Signs `account` in with Google; returns the access token's claims. */
  async function googleSignIn(account: FakeAccount) {
    const previous = providers.google.account;
    providers.google.account = account;
    try {
      const { verifier, challenge } = pkce();
      const back = await browse(begin('google', challenge), WEB);
      const tokens = await keycloak.codeGrant(
        back.searchParams.get('code') ?? '',
        verifier,
        redirectUri,
      );
      return decodeJwt(tokens.access_token);
    } finally {
      providers.google.account = previous;
    }
  }

  const account = (subject: string, email: string, emailVerified: boolean): FakeAccount => ({
    subject,
    email,
    emailVerified,
    name: 'Someone',
    picture: 'https://lh3.googleusercontent.example/someone.png',
  });

  it("takes a new user's address as verified when the provider vouches for it, not otherwise", async () => {
    const vouched = await googleSignIn(account('108842410000000000002', 'ada@gmail.example', true));
    expect(vouched).toMatchObject({ email: 'ada@gmail.example', email_verified: true });
    const unvouched = await googleSignIn(
      account('108842410000000000003', 'unvouched@gmail.example', false),
    );
    expect(unvouched).toMatchObject({ email: 'unvouched@gmail.example', email_verified: false });
    // Signing in again changes nothing.
    expect(
      await googleSignIn(account('108842410000000000003', 'unvouched@gmail.example', false)),
    ).toMatchObject({ sub: unvouched.sub, email_verified: false });
  });

  it("verifies an existing user's address when a provider that vouches for it is linked", async () => {
    await keycloak.createUser('alan@example.org', 'correct horse');
    const before = decodeJwt(
      (await keycloak.passwordGrant('alan@example.org', 'correct horse')).access_token,
    );
    expect(before['email_verified']).toBe(false);

    const linked = await googleSignIn(account('108842410000000000004', 'alan@example.org', true));
    expect(linked).toMatchObject({ sub: before.sub, email_verified: true });
    const after = decodeJwt(
      (await keycloak.passwordGrant('alan@example.org', 'correct horse')).access_token,
    );
    expect(after['email_verified']).toBe(true);
  });

  it('refuses a broker callback whose state it did not issue, on a page that leads back', async () => {
    const response = await fetch(`${issuer.realmUrl}/broker/google/endpoint?code=x&state=forged`, {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    // A browser is on this page: Keycloak's error page with the way back, not a JSON document.
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain('We are sorry...');
    expect(page).toContain(`<a href="${WEB}/login">Back to Application</a>`);
  });

  it('lists the enabled providers: Google, not GitHub whose OAuth app is not configured', async () => {
    expect(await keycloak.enabledProviders()).toEqual(['google']);
  });
});
