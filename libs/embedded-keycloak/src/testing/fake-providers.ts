import { listeningUrl } from '@debate/nest';
import formBody from '@fastify/formbody';
import Fastify, { type FastifyReply } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** The person the fake provider signs in (as if they had typed their password there). */
export interface FakeAccount {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
  picture: string;
}

export interface FakeProviderApp {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Who signs in next; null: the person declines on the provider's consent screen. */
  account: FakeAccount | null;
  /** The codes the provider redeemed (each once, with a matching PKCE verifier). */
  readonly redeemed: string[];
}

export interface FakeProviders {
  /** Google's OpenID issuer URL (GOOGLE_ISSUER_URL). */
  readonly googleIssuer: string;
  /** GitHub's web and API base URLs (GITHUB_URL, GITHUB_API_URL). */
  readonly githubUrl: string;
  readonly githubApiUrl: string;
  readonly google: FakeProviderApp;
  readonly github: FakeProviderApp;
  /** The environment that points the realm at these fakes. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

interface PendingCode {
  readonly app: FakeProviderApp;
  readonly account: FakeAccount;
  readonly redirectUri: string;
  readonly challenge: string;
  readonly nonce: string | undefined;
}

const AuthorizeQuery = z.object({
  client_id: z.string(),
  redirect_uri: z.url(),
  state: z.string().min(1),
  code_challenge: z.string().min(43),
  code_challenge_method: z.literal('S256'),
  nonce: z.string().optional(),
});

const TokenForm = z.object({
  code: z.string(),
  code_verifier: z.string(),
  client_id: z.string(),
  client_secret: z.string(),
  redirect_uri: z.string(),
});

function app(name: string, account: FakeAccount): FakeProviderApp {
  return {
    clientId: `${name}-client-id`,
    clientSecret: `${name}-client-secret-${randomBytes(8).toString('hex')}`,
    account,
    redeemed: [],
  };
}

/**
 * Google (OpenID Connect: discovery, JWKS, signed ID tokens with a nonce) and GitHub (OAuth 2,
 * /user and /user/emails) as local fakes, with the checks the real ones make on the OAuth app
 * (client credentials, redirect URI, single-use codes, PKCE S256). The edge of the world in
 * the provider sign-in tests: the realm's broker code talks to them over HTTP unchanged.
 */
export async function startFakeProviders(): Promise<FakeProviders> {
  const http = Fastify();
  await http.register(formBody);
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'fake-google-key', alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, FakeAccount>();
  let base = '';

  const google = app('google', {
    subject: '108842410000000000001',
    email: 'grace@gmail.example',
    emailVerified: true,
    name: 'Grace Hopper',
    picture: 'https://lh3.googleusercontent.example/grace.png',
  });
  const github = app('github', {
    subject: '5831234',
    email: 'linus@users.github.example',
    emailVerified: true,
    name: 'Linus T.',
    picture: 'https://avatars.githubusercontent.example/u/5831234',
  });

  const authorize = (provider: FakeProviderApp, query: unknown, reply: FastifyReply) => {
    const request = AuthorizeQuery.safeParse(query);
    if (!request.success || request.data.client_id !== provider.clientId) {
      return reply.code(400).send({ error: 'invalid_request' });
    }
    const back = new URL(request.data.redirect_uri);
    back.searchParams.set('state', request.data.state);
    if (!provider.account) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user declined');
      return reply.redirect(back.toString(), 302);
    }
    const code = randomBytes(16).toString('hex');
    codes.set(code, {
      app: provider,
      account: provider.account,
      redirectUri: request.data.redirect_uri,
      challenge: request.data.code_challenge,
      nonce: request.data.nonce,
    });
    back.searchParams.set('code', code);
    return reply.redirect(back.toString(), 302);
  };

  /** Redeems a code once, with the app's credentials, the same redirect URI, and PKCE. */
  const redeem = (provider: FakeProviderApp, body: unknown): PendingCode | undefined => {
    const form = TokenForm.safeParse(body);
    if (!form.success) return undefined;
    const pending = codes.get(form.data.code);
    codes.delete(form.data.code);
    const challenge = createHash('sha256').update(form.data.code_verifier).digest('base64url');
    if (
      !pending ||
      pending.app !== provider ||
      form.data.client_id !== provider.clientId ||
      form.data.client_secret !== provider.clientSecret ||
      form.data.redirect_uri !== pending.redirectUri ||
      challenge !== pending.challenge
    ) {
      return undefined;
    }
    provider.redeemed.push(form.data.code);
    return pending;
  };

  http.get('/google/.well-known/openid-configuration', async () => ({
    issuer: `${base}/google`,
    authorization_endpoint: `${base}/google/authorize`,
    token_endpoint: `${base}/google/token`,
    jwks_uri: `${base}/google/jwks`,
    response_types_supported: ['code'],
    id_token_signing_alg_values_supported: ['RS256'],
  }));
  http.get('/google/jwks', async () => ({ keys: [jwk] }));
  http.get('/google/authorize', async (request, reply) => authorize(google, request.query, reply));
  http.post('/google/token', async (request, reply) => {
    const pending = redeem(google, request.body);
    if (!pending) return reply.code(400).send({ error: 'invalid_grant' });
    const idToken = await new SignJWT({
      email: pending.account.email,
      email_verified: pending.account.emailVerified,
      name: pending.account.name,
      picture: pending.account.picture,
      ...(pending.nonce ? { nonce: pending.nonce } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
      .setIssuer(`${base}/google`)
      .setAudience(google.clientId)
      .setSubject(pending.account.subject)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    return {
      access_token: randomBytes(16).toString('hex'),
      token_type: 'Bearer',
      id_token: idToken,
    };
  });

  http.get('/github/login/oauth/authorize', async (request, reply) =>
    authorize(github, request.query, reply),
  );
  http.post('/github/login/oauth/access_token', async (request) => {
    const pending = redeem(github, request.body);
    // GitHub answers 200 with an error body.
    if (!pending) return { error: 'bad_verification_code' };
    const token = `gho_${randomBytes(16).toString('hex')}`;
    accessTokens.set(token, pending.account);
    return { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' };
  });
  const githubAccount = (authorization: string | undefined) =>
    accessTokens.get(authorization?.replace(/^Bearer /, '') ?? '');
  http.get('/github/api/user', async (request, reply) => {
    const account = githubAccount(request.headers.authorization);
    if (!account) return reply.code(401).send({ message: 'Bad credentials' });
    return {
      id: Number(account.subject),
      login: account.name.toLowerCase().replace(/\W+/g, ''),
      name: account.name,
      avatar_url: account.picture,
    };
  });
  http.get('/github/api/user/emails', async (request, reply) => {
    const account = githubAccount(request.headers.authorization);
    if (!account) return reply.code(401).send({ message: 'Bad credentials' });
    return [{ email: account.email, primary: true, verified: account.emailVerified }];
  });

  await http.listen({ port: 0, host: '127.0.0.1' });
  base = listeningUrl(http.server, '127.0.0.1');

  return {
    googleIssuer: `${base}/google`,
    githubUrl: `${base}/github`,
    githubApiUrl: `${base}/github/api`,
    google,
    github,
    env: () => ({
      GOOGLE_CLIENT_ID: google.clientId,
      GOOGLE_CLIENT_SECRET: google.clientSecret,
      GOOGLE_ISSUER_URL: `${base}/google`,
      GITHUB_CLIENT_ID: github.clientId,
      GITHUB_CLIENT_SECRET: github.clientSecret,
      GITHUB_URL: `${base}/github`,
      GITHUB_API_URL: `${base}/github/api`,
    }),
    close: () => http.close(),
  };
}
