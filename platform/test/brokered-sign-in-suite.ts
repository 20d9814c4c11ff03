import { identityContracts, isRefusal, type Session, type User } from '@debate/contracts';
import {
  cookieJarFetch,
  type FakeProviders,
  startFakeProviders,
} from '@debate/embedded-keycloak/testing';
import { TokenVerifier } from '@debate/gateway';
import type { ServiceClient } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeJwt } from 'jose';
import { graphql } from './graphql-client.js';
import { type RealmUnderTest, startPlatformOnRealm } from './sign-in-suite.js';
import type { NatsTestPlatform } from './test-platform.js';

/** The web app's origin the realm may send browsers back to (its WEB_ORIGIN). */
export const WEB_ORIGIN = 'http://127.0.0.1:3000';

/**
 * Follows redirects as a browser would, with a cookie jar of its own (a fresh browser), until
 * one leaves for `stopAt`; fails on any page that is not a redirect.
 */
async function browse(url: string, stopAt: string): Promise<URL> {
  const get = cookieJarFetch();
  let next = url;
  for (let hop = 0; hop < 15; hop += 1) {
    if (next.startsWith(stopAt)) return new URL(next);
    const response = await get(next);
    const location = response.headers.get('location');
    if (![302, 303].includes(response.status) || !location) {
      throw new Error(
        `${next} answered ${response.status}: ${(await response.text()).slice(0, 500)}`,
      );
    }
    next = new URL(location, next).toString();
  }
  throw new Error('too many redirects');
}

/**
 * Google and GitHub sign-in through `startRealm`'s realm, against local fakes of both providers
 * (the edge of the world), from the identity service's start to its session. Keycloak's Google
 * provider has Google's endpoints built in, so the Keycloak realm gets its google alias as a
 * generic OpenID Connect provider with the realm file's settings and mappers
 * (test/keycloak/keycloak-realm.ts); GitHub's base and API URLs are settings of Keycloak's own
 * GitHub provider.
 */
export function describeBrokeredSignIn(
  realmName: string,
  startRealm: (providers: FakeProviders) => Promise<RealmUnderTest>,
) {
  describe(`Google and GitHub sign-in through ${realmName}`, () => {
    let providers: FakeProviders;
    let realm: RealmUnderTest;
    let running: NatsTestPlatform;
    let identity: ServiceClient;

    beforeAll(async () => {
      providers = await startFakeProviders();
      realm = await startRealm(providers);
      ({ running, identity } = await startPlatformOnRealm(realm));
    }, 60_000);

    afterAll(async () => {
      await identity?.close();
      await running?.teardown();
      await realm?.close();
      await providers?.close();
    });

    /** One sign-in, as the gateway and the browser make it: start, the redirects, complete. */
    async function sessionWith(provider: 'google' | 'github'): Promise<Session> {
      const redirectUri = `${WEB_ORIGIN}/login?provider=${provider}`;
      const started = await identity.request(identityContracts.startProvider, {
        provider,
        redirectUri,
      });
      const back = await browse(started.url, WEB_ORIGIN);
      expect(back.searchParams.get('state')).toBe(started.state);
      expect(back.searchParams.get('iss')).toBe(realm.realmUrl);
      const outcome = await identity.request(identityContracts.completeProvider, {
        provider,
        code: back.searchParams.get('code') ?? '',
        codeVerifier: started.codeVerifier,
        redirectUri,
      });
      if (isRefusal(outcome)) throw new Error(`refused: ${outcome.refused} (${outcome.message})`);
      return outcome;
    }

    const signInWith = async (provider: 'google' | 'github'): Promise<User> =>
      (await sessionWith(provider)).user;

    it('offers both providers, which the realm has enabled', async () => {
      await expect(identity.request(identityContracts.providers, {})).resolves.toEqual({
        providers: ['google', 'github'],
      });
    });

    it('signs in with GitHub as the GitHub profile, the same user every time', async () => {
      const first = await signInWith('github');
      expect(first).toMatchObject({
        email: 'linus@users.github.example',
        displayName: 'Linus T.',
        photoURL: 'https://avatars.githubusercontent.example/u/5831234',
        isPro: false,
      });
      expect(await signInWith('github')).toEqual(first);
      // Each code was redeemed once, with the app's credentials and the PKCE verifier.
      expect(providers.github.redeemed).toHaveLength(2);
    });

    it('signs in with Google as the Google profile, the same user every time', async () => {
      const first = await signInWith('google');
      expect(first).toMatchObject({
        email: 'grace@gmail.example',
        displayName: 'Grace Hopper',
        photoURL: 'https://lh3.googleusercontent.example/grace.png',
      });
      expect(await signInWith('google')).toEqual(first);
      expect(providers.google.redeemed).toHaveLength(2);
    });

    it("renews and ends a provider's session through the web client, whose tokens the gateway takes", async () => {
      const session = await sessionWith('github');
      // Issued to the public web client (the authorization-code flow), with the gateway's audience.
      expect(decodeJwt(session.accessToken)).toMatchObject({ azp: 'debate-web' });
      await expect(
        new TokenVerifier({ issuer: realm.realmUrl }).verify(session.accessToken),
      ).resolves.toMatchObject({ email: 'linus@users.github.example' });
      const me = await graphql<{ me: { email: string } }>(
        running.platform.url,
        '{ me { email } }',
        { headers: { authorization: `Bearer ${session.accessToken}` } },
      );
      expect(me.data?.me.email).toBe('linus@users.github.example');

      const renewed = await identity.request(identityContracts.refresh, {
        refreshToken: session.refreshToken,
      });
      if (isRefusal(renewed)) throw new Error(`refused: ${renewed.refused} (${renewed.message})`);
      expect(renewed.user.id).toBe(session.user.id);
      await expect(
        identity.request(identityContracts.signOut, { refreshToken: renewed.refreshToken }),
      ).resolves.toEqual({ signedOut: true });
      await expect(
        identity.request(identityContracts.refresh, { refreshToken: renewed.refreshToken }),
      ).resolves.toEqual({ refused: 'session_expired', message: 'Session not active' });
    });

    it('refuses a code presented twice', async () => {
      const redirectUri = `${WEB_ORIGIN}/login?provider=github`;
      const started = await identity.request(identityContracts.startProvider, {
        provider: 'github',
        redirectUri,
      });
      const back = await browse(started.url, WEB_ORIGIN);
      const complete = () =>
        identity.request(identityContracts.completeProvider, {
          provider: 'github',
          code: back.searchParams.get('code') ?? '',
          codeVerifier: started.codeVerifier,
          redirectUri,
        });
      expect(isRefusal(await complete())).toBe(false);
      expect(await complete()).toMatchObject({ refused: 'provider_failed' });
    });
  });
}
