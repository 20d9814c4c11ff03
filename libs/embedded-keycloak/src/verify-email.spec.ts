import { start } from '@debate/embedded-mongo';
import { freePort } from '@debate/nest/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import mongoose from 'mongoose';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Mail, verificationLink, waitForMail } from './testing/mailbox.js';
import { serveEmbeddedIssuer, type ServedIssuer } from './index.js';
import { linkExpiration } from './mail.js';

const SECRET = 'test-identity-secret';
const WEB = 'http://127.0.0.1:3999';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: this project's Jest global setup sets it`);
  return value;
}

const decode = (html: string) =>
  html
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** The href of the page's link that reads `text`. */
function linkOf(html: string, text: string): string | undefined {
  for (const match of html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)) {
    if (decode(match[2] ?? '') === text) return decode(match[1] ?? '');
  }
  return undefined;
}

/** The AUTH_SESSION_ID cookie a response sets, and its attributes. */
function sessionCookie(response: Response): { value: string; attributes: string } | undefined {
  const header = response.headers.get('set-cookie');
  const match = header ? /^AUTH_SESSION_ID=([^;]*);(.*)$/.exec(header) : null;
  return match ? { value: match[1] ?? '', attributes: match[2]?.trim() ?? '' } : undefined;
}

describe('e-mail verification through the embedded issuer', () => {
  let dataDir: string;
  let store: Awaited<ReturnType<typeof start>>;
  let issuer: ServedIssuer;
  /** Without an SMTP server, and with one that does not answer. */
  let noMail: ServedIssuer;
  let unreachable: ServedIssuer;
  let skew = 0;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'verify-email-'));
    store = await start({ port: 0, dbPath: join(dataDir, 'mongo') });
    const common = {
      mongoUrl: store.uri,
      dataDir,
      serviceSecret: SECRET,
      port: 0,
      host: '127.0.0.1',
      webOrigins: [WEB],
    };
    issuer = await serveEmbeddedIssuer({
      ...common,
      now: () => Date.now() + skew,
      mail: {
        host: '127.0.0.1',
        port: Number(env('MAILPIT_TEST_SMTP_PORT')),
        from: 'no-reply@debate.example',
        fromDisplayName: 'AI Debate',
        security: 'none',
      },
    });
    noMail = await serveEmbeddedIssuer(common);
    unreachable = await serveEmbeddedIssuer({
      ...common,
      mail: {
        host: '127.0.0.1',
        port: await freePort(),
        from: 'no-reply@debate.example',
        security: 'none',
      },
    });
  }, 120_000);

  afterAll(async () => {
    await issuer?.close();
    await noMail?.close();
    await unreachable?.close();
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function token(fields: Record<string, string>, realm = issuer) {
    const response = await fetch(`${realm.realmUrl}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    return (await response.json()) as Record<string, unknown>;
  }

  const serviceToken = async (realm = issuer) =>
    (
      await token(
        { grant_type: 'client_credentials', client_id: 'identity-service', client_secret: SECRET },
        realm,
      )
    )['access_token'] as string;

  const signIn = async (email: string) =>
    (
      await token({
        grant_type: 'password',
        client_id: 'identity-service',
        client_secret: SECRET,
        username: email,
        password: 'correct horse',
      })
    )['access_token'] as string;

  /** A user made through the admin API; returns its id. */
  async function createUser(email: string): Promise<string> {
    const response = await fetch(`${issuer.baseUrl}/admin/realms/debate/users`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${await serviceToken()}`,
      },
      body: JSON.stringify({
        email,
        username: email,
        enabled: true,
        emailVerified: false,
        credentials: [{ type: 'password', value: 'correct horse', temporary: false }],
      }),
    });
    expect(response.status).toBe(201);
    return response.headers.get('location')?.split('/').pop() ?? '';
  }

  const getUser = (id: string, accessToken?: string) =>
    fetch(`${issuer.baseUrl}/admin/realms/debate/users/${id}`, {
      headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    });

  async function sendVerifyEmail(
    id: string,
    query: Record<string, string>,
    accessToken: string | undefined,
    realm = issuer,
  ) {
    const response = await fetch(
      `${realm.baseUrl}/admin/realms/debate/users/${id}/send-verify-email?${new URLSearchParams(query)}`,
      { method: 'PUT', headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {} },
    );
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  /** The newest message Mailpit received for `address`. */
  async function mailTo(address: string): Promise<Mail> {
    const [newest] = await waitForMail(env('MAILPIT_TEST_URL'), address);
    if (!newest) throw new Error(`no message to ${address}`);
    return newest;
  }

  /** The link of the verify-email message to `address`. */
  async function mailedLink(address: string): Promise<string> {
    return verificationLink(await mailTo(address));
  }

  const browse = (url: string, cookie?: string, userAgent?: string) =>
    fetch(url, {
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie: `AUTH_SESSION_ID=${cookie}` } : {}),
        ...(userAgent ? { 'user-agent': userAgent } : {}),
      },
    });

  it('reads a user through the admin API with view-users, not without', async () => {
    const id = await createUser('reader@example.org');
    expect((await getUser(id)).status).toBe(401);
    expect((await getUser(id, 'not-a-token')).status).toBe(401);
    // A user's own token has no realm-management roles.
    expect((await getUser(id, await signIn('reader@example.org'))).status).toBe(403);

    const response = await getUser(id, await serviceToken());
    expect(response.status).toBe(200);
    const user = (await response.json()) as Record<string, unknown>;
    expect(user).toEqual({
      id,
      username: 'reader@example.org',
      email: 'reader@example.org',
      emailVerified: false,
      enabled: true,
      createdTimestamp: expect.any(Number),
    });
    expect(Math.abs((user['createdTimestamp'] as number) - Date.now())).toBeLessThan(60_000);

    const unknown = await getUser(randomUUID(), await serviceToken());
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'User not found' });
    expect(decodeJwt(await signIn('reader@example.org'))['email_verified']).toBe(false);
  });

  it('mails the user a link that names them, the client and the way back', async () => {
    const id = await createUser('mailed@example.org');
    const sent = await sendVerifyEmail(
      id,
      { client_id: 'debate-web', redirect_uri: `${WEB}/verified` },
      await serviceToken(),
    );
    expect(sent).toEqual({ status: 204, body: undefined });

    const message = await mailTo('mailed@example.org');
    expect(message.Subject).toBe('Verify email');
    expect(message.From).toEqual({ Name: 'AI Debate', Address: 'no-reply@debate.example' });
    expect(message.To.map((to) => to.Address)).toEqual(['mailed@example.org']);
    const link = await mailedLink('mailed@example.org');
    expect(message.Text.replace(/\r\n/g, '\n')).toBe(
      'Someone has created a AI Debate account with this email address. If this was you, ' +
        'click the link below to verify your email address\n\n' +
        `${link}\n\n` +
        'This link will expire within 12 hours.\n\n' +
        "If you didn't create this account, just ignore this message.",
    );
    expect(message.HTML).toContain('Link to e-mail address verification');
    expect(link.startsWith(`${issuer.realmUrl}/login-actions/action-token?key=`)).toBe(true);

    const claims = decodeJwt(new URL(link).searchParams.get('key') ?? '');
    expect(claims).toMatchObject({
      typ: 'verify-email',
      sub: id,
      eml: 'mailed@example.org',
      azp: 'debate-web',
      reduri: `${WEB}/verified`,
      iss: issuer.realmUrl,
    });
    expect((claims.exp ?? 0) - Math.floor(Date.now() / 1000)).toBeGreaterThan(43_200 - 60);
    expect((claims.exp ?? 0) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(43_200);
  });

  it('verifies the address through the confirmation and required-action pages, with the cookie', async () => {
    const id = await createUser('follow@example.org');
    await sendVerifyEmail(
      id,
      { client_id: 'debate-web', redirect_uri: `${WEB}/verified?from=mail` },
      await serviceToken(),
    );
    const link = await mailedLink('follow@example.org');

    const first = await browse(link);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/html/);
    const cookie = sessionCookie(first);
    expect(cookie?.attributes).toBe('Path=/auth/realms/debate/; HttpOnly; Secure; SameSite=None');
    const page = await first.text();
    expect(page).toContain('Email address validation');
    expect(page).toContain('Confirm validity of e-mail address follow@example.org.');
    const proceed = linkOf(page, '» Click here to proceed');
    expect(proceed).toMatch(
      /^\/auth\/realms\/debate\/login-actions\/action-token\?key=[\w.-]+&client_id=debate-web&tab_id=[\w-]+$/,
    );
    expect(page).toContain('&amp;client_id=debate-web&amp;tab_id=');
    const bound = decodeJwt(new URL(proceed ?? '', issuer.realmUrl).searchParams.get('key') ?? '');
    expect(bound).toMatchObject({ typ: 'verify-email', sub: id, asid: cookie?.value });
    expect((await getUser(id, await serviceToken()).then((r) => r.json())) as object).toMatchObject(
      {
        emailVerified: false,
      },
    );

    const second = await browse(new URL(proceed ?? '', issuer.realmUrl).toString(), cookie?.value);
    expect(second.status).toBe(302);
    const location = new URL(second.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(
      `${issuer.realmUrl}/login-actions/required-action`,
    );
    expect(location.searchParams.get('client_id')).toBe('debate-web');
    expect(location.searchParams.get('tab_id')).toBe(
      new URL(proceed ?? '', WEB).searchParams.get('tab_id'),
    );

    const third = await browse(location.toString(), cookie?.value);
    expect(third.status).toBe(200);
    const updated = await third.text();
    expect(updated).toContain('Account updated');
    expect(updated).toContain('Your account has been updated.');
    expect(linkOf(updated, '« Back to Application')).toBe(`${WEB}/verified?from=mail`);

    const user = (await (await getUser(id, await serviceToken())).json()) as Record<
      string,
      unknown
    >;
    expect(user['emailVerified']).toBe(true);
    const accessToken = await signIn('follow@example.org');
    expect(decodeJwt(accessToken)['email_verified']).toBe(true);
    const userinfo = await fetch(`${issuer.realmUrl}/protocol/openid-connect/userinfo`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(await userinfo.json()).toMatchObject({ email_verified: true });

    // The mailed link, followed again.
    const again = await browse(link);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('Your email address has been verified already.');
  });

  it('asks again for a confirmation without the session cookie, and refuses required-action', async () => {
    const id = await createUser('nocookie@example.org');
    await sendVerifyEmail(id, {}, await serviceToken());
    const link = await mailedLink('nocookie@example.org');
    expect(decodeJwt(new URL(link).searchParams.get('key') ?? '')['azp']).toBe('account');

    const first = await browse(link);
    const proceed = linkOf(await first.text(), '» Click here to proceed') ?? '';
    expect(new URL(proceed, WEB).searchParams.get('client_id')).toBe('account');
    const confirm = new URL(proceed, issuer.realmUrl).toString();

    for (const cookie of [undefined, 'someone-elses-session']) {
      const loop = await browse(confirm, cookie);
      expect(loop.status).toBe(200);
      expect(sessionCookie(loop)?.value).not.toBe(sessionCookie(first)?.value);
      const page = await loop.text();
      expect(page).toContain('Confirm validity of e-mail address nocookie@example.org.');
      expect(linkOf(page, '» Click here to proceed')).not.toBe(proceed);
    }
    const user = (await (await getUser(id, await serviceToken())).json()) as Record<
      string,
      unknown
    >;
    expect(user['emailVerified']).toBe(false);

    const tab = new URL(proceed, WEB).searchParams.get('tab_id') ?? '';
    const required = `${issuer.realmUrl}/login-actions/required-action?client_id=account&tab_id=${tab}`;
    for (const cookie of [undefined, sessionCookie(first)?.value]) {
      const refused = await browse(required, cookie);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(
        'Cookie not found. Please make sure cookies are enabled in your browser.',
      );
    }
  });

  it('sets a Lax, not Secure, session cookie for Safari over http', async () => {
    const id = await createUser('safari@example.org');
    await sendVerifyEmail(id, {}, await serviceToken());
    const safari =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
    const response = await browse(await mailedLink('safari@example.org'), undefined, safari);
    expect(sessionCookie(response)?.attributes).toBe(
      'Path=/auth/realms/debate/; HttpOnly; SameSite=Lax',
    );
  });

  it('refuses an expired, forged or foreign key with the expired-link page', async () => {
    const id = await createUser('late@example.org');
    expect((await sendVerifyEmail(id, { lifespan: '60' }, await serviceToken())).status).toBe(204);
    const message = await mailTo('late@example.org');
    expect(message.Text).toContain('This link will expire within 1 minute.');
    const link = await mailedLink('late@example.org');
    const expiredPage = 'The link you clicked is no longer valid. It may have expired.';

    skew = 61_000;
    try {
      const expired = await browse(link);
      expect(expired.status).toBe(400);
      expect(await expired.text()).toContain(expiredPage);
    } finally {
      skew = 0;
    }
    expect((await browse(link)).status).toBe(200);

    const claims = decodeJwt(new URL(link).searchParams.get('key') ?? '');
    const forged = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'RS256' })
      .sign((await generateKeyPair('RS256')).privateKey);
    const accessToken = await signIn('late@example.org');
    for (const key of [forged, accessToken, 'garbage', '']) {
      const refused = await browse(
        `${issuer.realmUrl}/login-actions/action-token?${new URLSearchParams({ key })}`,
      );
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain(expiredPage);
    }
    // Nor is an action token a bearer token.
    expect((await getUser(id, new URL(link).searchParams.get('key') ?? '')).status).toBe(401);
  });

  it('refuses send-verify-email as Keycloak does', async () => {
    const id = await createUser('refused@example.org');
    const service = await serviceToken();
    expect((await sendVerifyEmail(id, {}, undefined)).status).toBe(401);
    expect((await sendVerifyEmail(id, {}, 'not-a-token')).status).toBe(401);
    expect((await sendVerifyEmail(id, {}, await signIn('refused@example.org'))).status).toBe(403);
    expect(await sendVerifyEmail(randomUUID(), {}, service)).toEqual({
      status: 404,
      body: { error: 'User not found' },
    });

    const refusal = (errorMessage: string) => ({ status: 400, body: { errorMessage } });
    expect(await sendVerifyEmail(id, { redirect_uri: `${WEB}/x` }, service)).toEqual(
      refusal('Client id missing'),
    );
    expect(await sendVerifyEmail(id, { client_id: 'nobody' }, service)).toEqual(
      refusal("Client doesn't exist"),
    );
    expect(
      await sendVerifyEmail(
        id,
        { client_id: 'debate-web', redirect_uri: 'https://attacker.example/steal' },
        service,
      ),
    ).toEqual(refusal('Invalid redirect uri.'));
    expect(
      await sendVerifyEmail(
        id,
        { client_id: 'identity-service', redirect_uri: `${WEB}/x` },
        service,
      ),
    ).toEqual(refusal('Invalid redirect uri.'));

    const connection = await mongoose
      .createConnection(store.uri, { dbName: 'keycloak' })
      .asPromise();
    const noEmail = randomUUID();
    try {
      await connection
        .collection('realm_users')
        .updateOne({ _id: id as never }, { $set: { enabled: false } });
      await connection.collection('realm_users').insertOne({
        _id: noEmail as never,
        passwordHash: null,
        enabled: true,
        createdAt: new Date(),
      });
    } finally {
      await connection.close();
    }
    expect(await sendVerifyEmail(id, {}, service)).toEqual(refusal('User is disabled'));
    expect(await sendVerifyEmail(noEmail, { client_id: 'nobody' }, service)).toEqual(
      refusal('User email missing'),
    );
  });

  it('answers 500 without an SMTP server, or when it cannot be reached', async () => {
    const id = await createUser('nomail@example.org');
    const failed = { status: 500, body: { errorMessage: 'Failed to send verify email' } };
    expect(await sendVerifyEmail(id, {}, await serviceToken(noMail), noMail)).toEqual(failed);
    expect(await sendVerifyEmail(id, {}, await serviceToken(unreachable), unreachable)).toEqual(
      failed,
    );
    // The checks come first.
    expect(
      (await sendVerifyEmail(id, { client_id: 'nobody' }, await serviceToken(noMail), noMail))
        .status,
    ).toBe(400);
  });

  it("words a link's lifetime as Keycloak's e-mails do", () => {
    expect(linkExpiration(43_200)).toBe('12 hours');
    expect(linkExpiration(3600)).toBe('1 hour');
    expect(linkExpiration(5400)).toBe('90 minutes');
    expect(linkExpiration(90)).toBe('1 minute');
    expect(linkExpiration(86_400)).toBe('1 day');
    expect(linkExpiration(259_200)).toBe('3 days');
    expect(linkExpiration(30)).toBe('0 seconds');
  });
});
