import {
  identityContracts,
  isRefusal,
  type Session,
  type SignInRefusal,
  userCreatedEvent,
} from '@debate/contracts';
import { serveEmbeddedIssuer, type ServedIssuer } from '@debate/embedded-keycloak';
import { start as startStore } from '@debate/embedded-mongo';
import { type ServiceUnderTest, startServiceUnderTest } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IdentityServiceModule } from '../src/index.js';

const SECRET = 'identity-service-secret-for-tests';
const PASSWORD = 'correct horse 42';

function session(answer: Session | SignInRefusal): Session {
  if (isRefusal(answer)) throw new Error(`refused: ${answer.refused} (${answer.message})`);
  return answer;
}

// The identity service alone, on its subjects, signing in against a Keycloak-compatible realm
// over HTTP: the embedded issuer with a store of its own (as Keycloak has its database). What the
// realm answers is held to the real Keycloak by the system tier's sign-in suite.
describe('the identity service', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'identity-test-realm-'));
  let realmStore: Awaited<ReturnType<typeof startStore>>;
  let issuer: ServedIssuer;
  let identity: ServiceUnderTest;
  let created: ReadonlyArray<{ userId: string; email: string }>;

  beforeAll(async () => {
    realmStore = await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
    issuer = await serveEmbeddedIssuer({
      mongoUrl: realmStore.uri,
      dataDir,
      port: 0,
      host: '127.0.0.1',
      serviceSecret: SECRET,
    });
    identity = await startServiceUnderTest({
      service: 'identity',
      register: (runtime) =>
        IdentityServiceModule.register({
          ...runtime,
          keycloak: {
            baseUrl: issuer.baseUrl,
            realm: 'debate',
            webClientId: 'debate-web',
            serviceClientId: 'identity-service',
            serviceSecret: SECRET,
          },
        }),
    });
    created = await identity.record(userCreatedEvent);
  });

  afterAll(async () => {
    await identity?.stop();
    await issuer?.close();
    await realmStore?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs a new account up, keeps its user and announces it once', async () => {
    const signedUp = session(
      await identity.client.request(identityContracts.signUp, {
        email: 'Ada@Example.org',
        password: PASSWORD,
      }),
    );
    expect(signedUp.user).toEqual({
      id: expect.any(String),
      email: 'ada@example.org',
      displayName: null,
      photoURL: null,
      isPro: false,
      createdAt: expect.any(String),
      emailVerified: false,
      mustVerifyEmail: false,
    });
    expect(signedUp.expiresIn).toBeGreaterThan(0);
    const { user } = await identity.client.request(identityContracts.getUser, {
      id: signedUp.user.id,
    });
    expect(user).toEqual(signedUp.user);
    // Signing in again is not a new user.
    session(
      await identity.client.request(identityContracts.signIn, {
        email: 'ada@example.org',
        password: PASSWORD,
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(created.filter((event) => event.userId === signedUp.user.id)).toEqual([
      { userId: signedUp.user.id, email: 'ada@example.org', createdAt: signedUp.user.createdAt },
    ]);
  });

  it('refuses a taken address, and signs a retry with the same password in', async () => {
    const first = session(
      await identity.client.request(identityContracts.signUp, {
        email: 'bo@example.org',
        password: PASSWORD,
      }),
    );
    const taken = await identity.client.request(identityContracts.signUp, {
      email: 'bo@example.org',
      password: 'another password 7',
    });
    expect(taken).toEqual({ refused: 'email_taken', message: expect.any(String) });
    // A sign-up whose first answer was lost, sent again: the same account, signed in.
    const retried = session(
      await identity.client.request(identityContracts.signUp, {
        email: 'bo@example.org',
        password: PASSWORD,
      }),
    );
    expect(retried.user.id).toBe(first.user.id);
  });

  it('refuses a wrong password, renews a session and ends it', async () => {
    session(
      await identity.client.request(identityContracts.signUp, {
        email: 'cy@example.org',
        password: PASSWORD,
      }),
    );
    const wrong = await identity.client.request(identityContracts.signIn, {
      email: 'cy@example.org',
      password: 'not the password',
    });
    expect(wrong).toEqual({ refused: 'invalid_credentials', message: 'Invalid user credentials' });

    const signedIn = session(
      await identity.client.request(identityContracts.signIn, {
        email: 'cy@example.org',
        password: PASSWORD,
      }),
    );
    const renewed = session(
      await identity.client.request(identityContracts.refresh, {
        refreshToken: signedIn.refreshToken,
      }),
    );
    expect(renewed.user.id).toBe(signedIn.user.id);
    expect(renewed.accessToken).not.toBe(signedIn.accessToken);

    await expect(
      identity.client.request(identityContracts.signOut, { refreshToken: renewed.refreshToken }),
    ).resolves.toEqual({ signedOut: true });
    const after = await identity.client.request(identityContracts.refresh, {
      refreshToken: renewed.refreshToken,
    });
    expect(after).toEqual({ refused: 'session_expired', message: expect.any(String) });
  });

  it('asks nobody to verify an address when the deployment has no mail', async () => {
    const signedUp = session(
      await identity.client.request(identityContracts.signUp, {
        email: 'di@example.org',
        password: PASSWORD,
      }),
    );
    await expect(
      identity.client.request(identityContracts.verificationStatus, { userId: signedUp.user.id }),
    ).resolves.toEqual({ required: false, emailVerified: false, mustVerifyEmail: false });
    await expect(
      identity.client.request(identityContracts.sendVerification, {
        userId: signedUp.user.id,
        redirectUri: 'http://localhost:3000/engine',
      }),
    ).resolves.toEqual({ sent: false, reason: 'not_required' });
  });

  it('offers no provider when the realm has none enabled', async () => {
    await expect(identity.client.request(identityContracts.providers, {})).resolves.toEqual({
      providers: [],
    });
  });

  it('knows no user it has not seen', async () => {
    await expect(
      identity.client.request(identityContracts.getUser, { id: 'nobody' }),
    ).resolves.toEqual({ user: null });
  });
});
