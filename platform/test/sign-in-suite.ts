import {
  eventStreams,
  identityContracts,
  isRefusal,
  type Session,
  type SignInRefusal,
  subjects,
} from '@debate/contracts';
import { InvalidTokenError, TokenVerifier } from '@debate/gateway';
import { createClientProxy, natsTransport, ServiceClient } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { graphql } from './graphql-client.js';
import {
  type ExtraOptions,
  type NatsTestPlatform,
  startTestPlatformOverNats,
} from './test-platform.js';

/** A realm the suite signs in against: Keycloak, or the embedded Keycloak-compatible issuer. */
export interface RealmUnderTest {
  /** Its base URL as the identity service reaches it (Keycloak's root, or the issuer's /auth). */
  readonly baseUrl: string;
  /** The realm's URL: the `iss` of its tokens. */
  readonly realmUrl: string;
  /** The `identity-service` client's secret. */
  readonly serviceSecret: string;
  /** Where the mail it sends arrives (a Mailpit's URL), when it has mail. */
  readonly mailUrl?: string;
  close(): Promise<void>;
}

const SESSION = 'accessToken expiresIn user { id email isPro createdAt }';
const CREDENTIALS = 'mutation ($email: String!, $password: String!)';
const SIGN_UP = `${CREDENTIALS} { signUp(email: $email, password: $password) { ${SESSION} } }`;
const SIGN_IN = `${CREDENTIALS} { signIn(email: $email, password: $password) { ${SESSION} } }`;
const REFRESH = `mutation { refreshSession { ${SESSION} } }`;
const ME = '{ me { id email } }';

interface SessionData {
  accessToken: string;
  user: { id: string; email: string; isPro: boolean; createdAt: string | null };
}

function session(outcome: Session | SignInRefusal): Session {
  if (isRefusal(outcome)) throw new Error(`refused: ${outcome.refused} (${outcome.message})`);
  return outcome;
}

/** The `name=value` of the session cookie in a Set-Cookie list. */
function sessionCookie(setCookie: readonly string[]): string {
  const header = setCookie.find((value) => value.startsWith('debate_session='));
  if (!header) throw new Error(`no session cookie in ${JSON.stringify(setCookie)}`);
  return header.split(';')[0] ?? '';
}

/** A token with one claim changed and the signature kept: what a forger would try first. */
function tampered(token: string): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as {
    email: string;
  };
  const forged = Buffer.from(JSON.stringify({ ...claims, email: 'admin@example.org' }));
  return `${header}.${forged.toString('base64url')}.${signature}`;
}

/** The same claims, unsigned (`alg: none`). */
function unsigned(token: string): string {
  const payload = token.split('.')[1] ?? '';
  const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
  return `${header}.${payload}.`;
}

/**
 * How a realm issues a user's token to a client other than the platform's (Keycloak: a client
 * added through its admin API); a realm without other clients that sign users in (the embedded
 * issuer) has none.
 */
export type OtherClientToken = (
  realm: RealmUnderTest,
  email: string,
  password: string,
) => Promise<string>;

/**
 * The platform over real NATS, its identity service and gateway signing in with `realm`, and a
 * client of the identity service's subjects.
 */
export async function startPlatformOnRealm(
  realm: RealmUnderTest,
  extra: ExtraOptions = {},
): Promise<{ running: NatsTestPlatform; identity: ServiceClient }> {
  const running = await startTestPlatformOverNats({
    ...extra,
    keycloak: {
      issuerUrl: realm.realmUrl,
      settings: {
        baseUrl: realm.baseUrl,
        realm: 'debate',
        webClientId: 'debate-web',
        serviceClientId: 'identity-service',
        serviceSecret: realm.serviceSecret,
      },
    },
  });
  const identity = new ServiceClient(
    createClientProxy(natsTransport(running.natsUrl), { anonymous: 'sign-in-suite' }),
    10_000,
  );
  return { running, identity };
}

/**
 * Sign-in, end to end: the gateway and the identity service over real NATS, signing in over
 * HTTP against `startRealm`'s realm. The same cases, word for word, against Keycloak and against
 * the embedded issuer: this suite is the contract between the two.
 */
export function describeSignIn(
  realmName: string,
  startRealm: () => Promise<RealmUnderTest>,
  otherClientToken?: OtherClientToken,
) {
  describe(`sign-in against ${realmName}`, () => {
    let realm: RealmUnderTest;
    let running: NatsTestPlatform;
    let url: string;
    let identity: ServiceClient;

    beforeAll(async () => {
      realm = await startRealm();
      ({ running, identity } = await startPlatformOnRealm(realm));
      url = running.platform.url;
    }, 60_000);

    afterAll(async () => {
      await identity?.close();
      await running?.teardown();
      await realm?.close();
    });

    const signUp = (email: string, password: string) =>
      graphql<{ signUp: SessionData }>(url, SIGN_UP, { variables: { email, password } });
    const signIn = (email: string, password: string) =>
      graphql<{ signIn: SessionData }>(url, SIGN_IN, { variables: { email, password } });
    const refresh = (cookie: string) =>
      graphql<{ refreshSession: SessionData | null }>(url, REFRESH, { headers: { cookie } });

    it('creates an account, then signs that user in again with any case of the address', async () => {
      const created = await signUp('ada@example.org', 'correct horse');
      expect(created.errors).toBeUndefined();
      expect(created.data?.signUp.user).toMatchObject({ email: 'ada@example.org', isPro: false });
      expect(sessionCookie(created.setCookie)).not.toBe('debate_session=');

      const again = await signIn('ADA@example.org', 'correct horse');
      expect(again.errors).toBeUndefined();
      expect(again.data?.signIn.user).toEqual(created.data?.signUp.user);
      const me = await graphql<{ me: { id: string; email: string } }>(url, ME, {
        headers: { authorization: `Bearer ${again.data?.signIn.accessToken}` },
      });
      expect(me.data?.me).toEqual({ id: created.data?.signUp.user.id, email: 'ada@example.org' });
    });

    it('refuses a taken address unless it is a retry, and passwords the policy refuses', async () => {
      const taken = await signUp('ada@example.org', 'another horse');
      expect(taken.errors?.[0]).toMatchObject({ message: 'User exists with same email' });
      // The same sign-up again with that account's password is a retry whose answer was lost:
      // it signs the user in (and clears the failure the other password counted).
      const retried = await signUp('ada@example.org', 'correct horse');
      expect(retried.errors).toBeUndefined();
      expect(retried.data?.signUp.user.email).toBe('ada@example.org');
      const short = await signUp('bo@example.org', 'tiny7');
      expect(short.errors?.[0]).toMatchObject({
        message: 'Invalid password: minimum length 8.',
        extensions: { code: 'PASSWORD_POLICY' },
      });
      const same = await signUp('bo@example.org', 'bo@example.org');
      expect(same.errors?.[0]).toMatchObject({
        message: 'Invalid password: must not be equal to the email.',
        extensions: { code: 'PASSWORD_POLICY' },
      });
      // One of the 10,000 most common passwords (deploy/keycloak/common-passwords.txt), in any
      // case, and checked before the length: the realm's words are what the sign-up form's
      // error box shows.
      for (const common of ['sunshine', 'Password1', 'short']) {
        expect((await signUp('bo@example.org', common)).errors?.[0]).toMatchObject({
          message: 'Invalid password: password is not allowed.',
          extensions: { code: 'PASSWORD_POLICY' },
        });
      }
      expect((await signIn('bo@example.org', 'tiny7')).errors?.[0]?.message).toBe(
        'Invalid user credentials',
      );
      expect((await signUp('bo@example.org', 'a better password')).errors).toBeUndefined();
    });

    it('refuses a wrong password and an unknown address alike, setting no cookie', async () => {
      const wrong = await signIn('ada@example.org', 'wrong horse');
      expect(wrong.errors?.[0]).toMatchObject({
        message: 'Invalid user credentials',
        extensions: { code: 'UNAUTHENTICATED' },
      });
      expect(wrong.setCookie).toEqual([]);
      const unknown = await signIn('nobody@example.org', 'correct horse');
      expect(unknown.errors?.[0]?.message).toBe('Invalid user credentials');
      // One failure does not lock the account.
      expect((await signIn('ada@example.org', 'correct horse')).errors).toBeUndefined();
    });

    it('locks an account after repeated wrong passwords, even against the right one', async () => {
      expect((await signUp('cy@example.org', 'correct horse')).errors).toBeUndefined();
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect((await signIn('cy@example.org', `wrong ${attempt}`)).errors?.[0]?.message).toBe(
          'Invalid user credentials',
        );
      }
      const locked = await signIn('cy@example.org', 'correct horse');
      expect(locked.errors?.[0]).toMatchObject({
        message: 'Invalid user credentials',
        extensions: { code: 'UNAUTHENTICATED' },
      });
      expect(locked.setCookie).toEqual([]);
    });

    it('keeps the session across a reload by its cookie, once per cookie, and signs out', async () => {
      const signedIn = await signIn('ada@example.org', 'correct horse');
      const first = sessionCookie(signedIn.setCookie);
      const reloaded = await refresh(first);
      expect(reloaded.data?.refreshSession?.user.email).toBe('ada@example.org');
      const second = sessionCookie(reloaded.setCookie);
      expect(second).not.toBe(first);
      const third = sessionCookie((await refresh(second)).setCookie);

      const signedOut = await graphql<{ signOut: boolean }>(url, 'mutation { signOut }', {
        headers: { cookie: third },
      });
      expect(signedOut.data?.signOut).toBe(true);
      expect(signedOut.setCookie.find((header) => header.startsWith('debate_session='))).toMatch(
        /^debate_session=;.*Expires=Thu, 01 Jan 1970/,
      );
      expect((await refresh(third)).data?.refreshSession).toBeNull();
    });

    it("answers refreshes in the realm's words: a replayed token ends its session", async () => {
      const signedIn = session(
        await identity.request(identityContracts.signIn, {
          email: 'ada@example.org',
          password: 'correct horse',
        }),
      );
      const renewed = session(
        await identity.request(identityContracts.refresh, { refreshToken: signedIn.refreshToken }),
      );
      expect(renewed.user.id).toBe(signedIn.user.id);
      expect(
        await identity.request(identityContracts.refresh, { refreshToken: signedIn.refreshToken }),
      ).toEqual({
        refused: 'session_expired',
        message: 'Maximum allowed refresh token reuse exceeded',
      });
      // The replay ended the session: the token it was stolen from is no good either.
      expect(
        await identity.request(identityContracts.refresh, { refreshToken: renewed.refreshToken }),
      ).toMatchObject({ refused: 'session_expired' });

      const another = session(
        await identity.request(identityContracts.signIn, {
          email: 'ada@example.org',
          password: 'correct horse',
        }),
      );
      expect(
        await identity.request(identityContracts.signOut, { refreshToken: another.refreshToken }),
      ).toEqual({ signedOut: true });
      expect(
        await identity.request(identityContracts.refresh, { refreshToken: another.refreshToken }),
      ).toEqual({ refused: 'session_expired', message: 'Session not active' });
      expect(
        await identity.request(identityContracts.refresh, { refreshToken: 'not-a-token' }),
      ).toEqual({ refused: 'session_expired', message: 'Invalid refresh token' });
      expect(
        await identity.request(identityContracts.signOut, { refreshToken: 'not-a-token' }),
      ).toEqual({ signedOut: false });
    });

    it('refuses a password grant straight to the realm with the web client', async () => {
      // Past the gateway, its sign-in limits would not count it: the public client has no
      // direct access grants, only the identity service's confidential client has.
      const direct = await fetch(`${realm.realmUrl}/protocol/openid-connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: 'debate-web',
          username: 'ada@example.org',
          password: 'correct horse',
          scope: 'openid email profile',
        }).toString(),
      });
      expect(direct.status).toBe(400);
      expect(await direct.json()).toEqual({
        error: 'unauthorized_client',
        error_description: 'Client not allowed for direct access grants',
      });
    });

    if (otherClientToken) {
      it('refuses a token another client of the realm got for the same user, with the same claims', async () => {
        const token = await otherClientToken(realm, 'ada@example.org', 'correct horse');
        const claims = decodeJwt(token);
        expect(claims).toMatchObject({ typ: 'Bearer', email: 'ada@example.org' });
        expect(claims.sub).toBeDefined();
        const refused = await graphql(url, ME, { headers: { authorization: `Bearer ${token}` } });
        expect(refused.errors?.[0]).toMatchObject({
          message: 'The access token was not issued to this app',
          extensions: { code: 'UNAUTHENTICATED' },
        });
        await expect(new TokenVerifier({ issuer: realm.realmUrl }).verify(token)).rejects.toThrow(
          new InvalidTokenError('The access token was not issued to this app'),
        );
      });
    }

    it("refuses the identity service's service-account token, though it names the gateway's audience", async () => {
      // The client_credentials grant of the client whose password grant signs users in: its
      // audience mapper applies to this token too, with a subject and the realm's roles.
      const response = await fetch(`${realm.realmUrl}/protocol/openid-connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: 'identity-service',
          client_secret: realm.serviceSecret,
        }).toString(),
      });
      const token = z
        .object({ access_token: z.string() })
        .parse(await response.json()).access_token;
      const claims = decodeJwt(token);
      expect(claims).toMatchObject({
        typ: 'Bearer',
        azp: 'identity-service',
        // Keycloak 26.7's token for this realm: no e-mail, no client_id claim (the realm file's
        // client has no service_account scope), the service account's user name.
        preferred_username: 'service-account-identity-service',
      });
      expect(claims.aud).toContain('debate-gateway');
      expect(claims.sub).toBeDefined();
      const refused = await graphql(url, ME, { headers: { authorization: `Bearer ${token}` } });
      expect(refused.errors?.[0]).toMatchObject({
        message: "The access token is a service account's, not a user's",
        extensions: { code: 'UNAUTHENTICATED' },
      });
    });

    it("accepts the realm's tokens, and refuses tampered, unsigned and expired ones", async () => {
      const signedIn = await signIn('ada@example.org', 'correct horse');
      const token = signedIn.data?.signIn.accessToken ?? '';
      const verifier = new TokenVerifier({ issuer: realm.realmUrl });
      expect(await verifier.verify(token)).toMatchObject({ email: 'ada@example.org' });

      for (const forged of [tampered(token), unsigned(token)]) {
        await expect(verifier.verify(forged)).rejects.toThrow(
          new InvalidTokenError('The access token is not valid'),
        );
        const refused = await graphql(url, ME, { headers: { authorization: `Bearer ${forged}` } });
        expect(refused.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
      }

      const { exp } = decodeJwt(token);
      const later = new TokenVerifier({
        issuer: realm.realmUrl,
        now: () => new Date(((exp ?? 0) + 60) * 1000),
      });
      await expect(later.verify(token)).rejects.toThrow(
        new InvalidTokenError('The session has expired'),
      );
    });

    it('announces each user once, whatever the number of concurrent first sign-ins', async () => {
      // A user the realm has (created by its admin API) who has never signed in to the platform,
      // with 20 sessions opened at the realm itself. (Keycloak refuses concurrent password grants
      // for one user since CVE-2024-4629, so the concurrency comes from the sessions' renewals.)
      const realmForm = (fields: Record<string, string>) =>
        fetch(`${realm.realmUrl}/protocol/openid-connect/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
        }).then(async (response) => (await response.json()) as Record<string, string>);
      const { access_token: adminToken } = await realmForm({
        grant_type: 'client_credentials',
        client_id: 'identity-service',
        client_secret: realm.serviceSecret,
      });
      const created = await fetch(`${realm.baseUrl}/admin/realms/debate/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({
          username: 'dee@example.org',
          email: 'dee@example.org',
          enabled: true,
          credentials: [{ type: 'password', value: 'twenty at once', temporary: false }],
        }),
      });
      expect(created.status).toBe(201);
      const refreshTokens: string[] = [];
      for (let i = 0; i < 20; i += 1) {
        const tokens = await realmForm({
          grant_type: 'password',
          client_id: 'identity-service',
          client_secret: realm.serviceSecret,
          username: 'dee@example.org',
          password: 'twenty at once',
          scope: 'openid email profile',
        });
        const refreshToken = tokens['refresh_token'];
        if (!refreshToken) throw new Error(`the realm refused: ${JSON.stringify(tokens)}`);
        refreshTokens.push(refreshToken);
      }

      const outcomes = await Promise.all(
        refreshTokens.map((refreshToken) =>
          identity.request(identityContracts.refresh, { refreshToken }),
        ),
      );
      const ids = new Set(outcomes.map((outcome) => session(outcome).user.id));
      expect(ids.size).toBe(1);

      const nc = await connect({ servers: running.natsUrl });
      try {
        const jsm = await jetstreamManager(nc);
        const announced: string[] = [];
        const consumer = await jetstream(nc).consumers.get(eventStreams.identity.name);
        const messages = await consumer.fetch({ max_messages: 100, expires: 1_000 });
        for await (const message of messages) {
          if (message.subject === subjects.identity.user.created) {
            announced.push((message.json() as { email: string }).email);
          }
        }
        // Everyone who signed up or in during this suite, each once.
        expect(announced.sort()).toEqual([
          'ada@example.org',
          'bo@example.org',
          'cy@example.org',
          'dee@example.org',
        ]);
        expect((await jsm.streams.info(eventStreams.identity.name)).state.messages).toBe(4);
      } finally {
        await nc.close();
      }
    }, 60_000);
  });
}
