import { defaultGatewayLimits } from '@debate/gateway';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeJwt } from 'jose';
import { WEB_ORIGIN } from './brokered-sign-in-suite.js';
import { settingsOf } from './fixtures.js';
import { graphql } from './graphql-client.js';
import {
  followVerificationLink,
  verificationLink,
  waitForMail,
} from '@debate/embedded-keycloak/testing';
import { type RealmUnderTest, startPlatformOnRealm } from './sign-in-suite.js';
import type { NatsTestPlatform } from './test-platform.js';

const USER = 'user { id email emailVerified mustVerifyEmail }';
const SIGN_UP = `mutation ($email: String!, $password: String!) {
  signUp(email: $email, password: $password) { accessToken ${USER} } }`;
const START = 'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }';
const SEND_AGAIN = 'mutation { sendVerificationEmail }';
const ME = '{ me { emailVerified mustVerifyEmail } }';
const PASSWORD = 'a long enough password';

/**
 * The browser reaches the gateway at the realm's WEB_ORIGIN through a proxy in front of it: the
 * link in the mail leads back there.
 */
const THROUGH_PROXY = { 'x-forwarded-host': '127.0.0.1:3000', 'x-forwarded-proto': 'http' };

interface SignedUp {
  accessToken: string;
  user: { id: string; email: string; emailVerified: boolean; mustVerifyEmail: boolean };
}

/**
 * A verified e-mail address before the free debates, end to end: the gateway and the identity
 * service over real NATS with EMAIL_VERIFICATION=required, the realm mailing its link to a real
 * SMTP server (Mailpit), and the link followed as a browser follows it. The same cases against
 * Keycloak and against the embedded issuer.
 */
export function describeEmailVerification(
  realmName: string,
  startRealm: () => Promise<RealmUnderTest>,
) {
  describe(`e-mail verification with ${realmName}`, () => {
    let realm: RealmUnderTest;
    let running: NatsTestPlatform;
    let url: string;
    let mailUrl: string;

    beforeAll(async () => {
      realm = await startRealm();
      if (!realm.mailUrl) throw new Error(`${realmName} has no mail`);
      mailUrl = realm.mailUrl;
      ({ running } = await startPlatformOnRealm(realm, {
        emailVerification: 'required',
        limits: defaultGatewayLimits(),
        trustProxy: 'loopback',
      }));
      url = running.platform.url;
    }, 60_000);

    afterAll(async () => {
      await running?.teardown();
      await realm?.close();
    });

    const as = (token: string) => ({
      headers: { authorization: `Bearer ${token}`, ...THROUGH_PROXY },
    });
    const signUp = (email: string) =>
      graphql<{ signUp: SignedUp }>(url, SIGN_UP, {
        variables: { email, password: PASSWORD },
        headers: THROUGH_PROXY,
      });
    const start = (token: string) =>
      graphql<{ startDebate: string }>(url, START, {
        variables: { settings: settingsOf('Should every town have a library?') },
        ...as(token),
      });

    it('mails a new account a link; until it is followed the account browses but cannot start a debate', async () => {
      const email = `verify-${Date.now()}@example.org`;
      const created = await signUp(email);
      expect(created.errors).toBeUndefined();
      const session = created.data?.signUp as SignedUp;
      expect(session.user).toMatchObject({ email, emailVerified: false, mustVerifyEmail: true });
      expect(decodeJwt(session.accessToken)['email_verified']).toBe(false);

      const refused = await start(session.accessToken);
      expect(refused.errors?.[0]).toMatchObject({
        message: `Verify your e-mail address to start a debate: follow the link in the mail we sent to ${email}.`,
        extensions: { code: 'EMAIL_NOT_VERIFIED' },
      });
      // Browsing goes on as before.
      const ranking = await graphql(url, '{ communityDebates { next } }', as(session.accessToken));
      expect(ranking.errors).toBeUndefined();
      expect((await graphql(url, ME, as(session.accessToken))).data).toEqual({
        me: { emailVerified: false, mustVerifyEmail: true },
      });

      const [mail] = await waitForMail(mailUrl, email);
      if (!mail) throw new Error('no mail');
      expect(mail.Subject).toBe('Verify email');
      const followed = await followVerificationLink(verificationLink(mail));
      expect(followed.page).toContain('Your account has been updated.');
      expect(followed.backToApplication).toBe(`${WEB_ORIGIN}/engine`);

      // The token still says unverified; the realm's word lets the debate start.
      const started = await start(session.accessToken);
      expect(started.errors).toBeUndefined();
      expect(started.data?.startDebate).toEqual(expect.any(String));
      expect((await graphql(url, ME, as(session.accessToken))).data).toEqual({
        me: { emailVerified: true, mustVerifyEmail: false },
      });
      // The mail again, once verified: nothing to send.
      const again = await graphql(url, SEND_AGAIN, as(session.accessToken));
      expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'ALREADY_VERIFIED' });
    });

    it('sends the mail again on request, a few times an hour at most', async () => {
      const email = `again-${Date.now()}@example.org`;
      const created = await signUp(email);
      const token = created.data?.signUp.accessToken ?? '';
      await waitForMail(mailUrl, email, 1);
      const limits = defaultGatewayLimits().rateLimits;
      const perAccount = limits === 'off' ? 0 : (limits.sendVerificationEmail.account?.points ?? 0);
      expect(perAccount).toBe(3);
      for (let sent = 0; sent < perAccount; sent += 1) {
        const answer = await graphql<{ sendVerificationEmail: boolean }>(
          url,
          SEND_AGAIN,
          as(token),
        );
        expect(answer.errors).toBeUndefined();
        expect(answer.data?.sendVerificationEmail).toBe(true);
      }
      const mails = await waitForMail(mailUrl, email, perAccount + 1);
      const newest = mails[0];
      if (!newest) throw new Error('no mail');
      const over = await graphql(url, SEND_AGAIN, as(token));
      expect(over.status).toBe(429);
      expect(over.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
      expect((await followVerificationLink(verificationLink(newest))).page).toContain(
        'Your account has been updated.',
      );
    });
  });
}
