import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { z } from 'zod';
import { optionalEnv } from '@debate/nest';

/** The identity providers the realm brokers (their aliases in the realm file). */
export type BrokerAlias = 'google' | 'github';
export const brokerNames: Record<BrokerAlias, string> = { google: 'Google', github: 'GitHub' };

/** An OAuth app registered with a provider, and where the provider is. */
interface BrokerSettings {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Google: the OpenID issuer (discovery); GitHub: the web base URL (…/login/oauth/…). */
  readonly baseUrl: string;
  /** GitHub only: the REST API base URL. */
  readonly apiUrl?: string;
}

/** Who the provider says signed in. */
export interface BrokeredIdentity {
  readonly subject: string;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly displayName: string | null;
  readonly photoURL: string | null;
}

/** The provider refused, or answered something this realm cannot use. */
export class BrokerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrokerError';
  }
}

interface BrokerStart {
  readonly state: string;
  readonly nonce: string;
  readonly codeChallenge: string;
  readonly redirectUri: string;
}

/** One brokered provider: where to send the browser, and how to read who came back. */
export interface Broker {
  readonly alias: BrokerAlias;
  authorizationUrl(start: BrokerStart): Promise<string>;
  identify(
    code: string,
    codeVerifier: string,
    nonce: string,
    redirectUri: string,
  ): Promise<BrokeredIdentity>;
}

async function json(response: Response, what: string): Promise<unknown> {
  if (!response.ok) {
    throw new BrokerError(`${what} answered HTTP ${response.status}`);
  }
  return response.json();
}

const Discovery = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});

const GoogleTokens = z.object({ id_token: z.string().min(1) });
const GoogleClaims = z.object({
  sub: z.string().min(1),
  email: z.string().min(3),
  email_verified: z.boolean().optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
  nonce: z.string().optional(),
});

/** Google, as an OpenID Connect provider: discovery, code + PKCE, a verified ID token. */
export class GoogleBroker implements Broker {
  readonly alias = 'google' as const;
  private discovery:
    Promise<{ metadata: z.output<typeof Discovery>; keys: JWTVerifyGetKey }> | undefined;

  constructor(
    private readonly settings: BrokerSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private discover() {
    this.discovery ??= (async () => {
      const url = `${this.settings.baseUrl.replace(/\/$/, '')}/.well-known/openid-configuration`;
      const metadata = Discovery.parse(
        await json(
          await this.fetchImpl(url, { signal: AbortSignal.timeout(10_000) }),
          'Google discovery',
        ),
      );
      return { metadata, keys: createRemoteJWKSet(new URL(metadata.jwks_uri)) };
    })();
    this.discovery.catch(() => (this.discovery = undefined));
    return this.discovery;
  }

  async authorizationUrl(start: BrokerStart): Promise<string> {
    const { metadata } = await this.discover();
    const url = new URL(metadata.authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: this.settings.clientId,
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: start.redirectUri,
      state: start.state,
      nonce: start.nonce,
      code_challenge: start.codeChallenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  async identify(code: string, codeVerifier: string, nonce: string, redirectUri: string) {
    const { metadata, keys } = await this.discover();
    const response = await this.fetchImpl(metadata.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: codeVerifier,
        redirect_uri: redirectUri,
        client_id: this.settings.clientId,
        client_secret: this.settings.clientSecret,
      }).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    const tokens = GoogleTokens.parse(await json(response, 'Google token endpoint'));
    let claims: z.output<typeof GoogleClaims>;
    try {
      const { payload } = await jwtVerify(tokens.id_token, keys, {
        issuer: metadata.issuer,
        audience: this.settings.clientId,
      });
      claims = GoogleClaims.parse(payload);
    } catch (error) {
      throw new BrokerError(`Google's ID token was refused: ${(error as Error).message}`);
    }
    if (claims.nonce !== nonce) throw new BrokerError("Google's ID token is not for this sign-in");
    return {
      subject: claims.sub,
      email: claims.email,
      emailVerified: claims.email_verified === true,
      displayName: claims.name ?? null,
      photoURL: claims.picture ?? null,
    };
  }
}

const GithubTokens = z.object({ access_token: z.string().min(1) });
const GithubUser = z.object({
  id: z.number().int(),
  login: z.string(),
  name: z.string().nullable().optional(),
  avatar_url: z.string().nullable().optional(),
});
const GithubEmails = z.array(
  z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }),
);

/** GitHub, as an OAuth 2 provider: code + PKCE, then the user and their primary e-mail. */
export class GithubBroker implements Broker {
  readonly alias = 'github' as const;

  constructor(
    private readonly settings: BrokerSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private get web(): string {
    return this.settings.baseUrl.replace(/\/$/, '');
  }

  private get api(): string {
    return (this.settings.apiUrl ?? 'https://api.github.com').replace(/\/$/, '');
  }

  async authorizationUrl(start: BrokerStart): Promise<string> {
    const url = new URL(`${this.web}/login/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: this.settings.clientId,
      redirect_uri: start.redirectUri,
      scope: 'read:user user:email',
      state: start.state,
      code_challenge: start.codeChallenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  async identify(code: string, codeVerifier: string, _nonce: string, redirectUri: string) {
    const response = await this.fetchImpl(`${this.web}/login/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        client_id: this.settings.clientId,
        client_secret: this.settings.clientSecret,
        code,
        code_verifier: codeVerifier,
        redirect_uri: redirectUri,
      }).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    const body = await json(response, 'GitHub token endpoint');
    const tokens = GithubTokens.safeParse(body);
    if (!tokens.success) throw new BrokerError('GitHub refused the sign-in code');
    const headers = {
      authorization: `Bearer ${tokens.data.access_token}`,
      accept: 'application/vnd.github+json',
    };
    const [user, emails] = await Promise.all([
      this.fetchImpl(`${this.api}/user`, { headers, signal: AbortSignal.timeout(10_000) }).then(
        async (answer) => GithubUser.parse(await json(answer, 'GitHub /user')),
      ),
      this.fetchImpl(`${this.api}/user/emails`, {
        headers,
        signal: AbortSignal.timeout(10_000),
      }).then(async (answer) => GithubEmails.parse(await json(answer, 'GitHub /user/emails'))),
    ]);
    const primary = emails.find((entry) => entry.primary && entry.verified);
    if (!primary)
      throw new BrokerError('The GitHub account has no verified primary e-mail address');
    return {
      subject: String(user.id),
      email: primary.email,
      emailVerified: true,
      displayName: user.name ?? user.login,
      photoURL: user.avatar_url ?? null,
    };
  }
}

/** The environment that configures the brokers; a provider without both credentials is off. */
export const brokerEnvSchema = z.object({
  GOOGLE_CLIENT_ID: optionalEnv(z.string().min(1).optional()).describe(
    "The Google OAuth app's client id; unset (or without its secret), Google sign-in answers that it is not configured.",
  ),
  GOOGLE_CLIENT_SECRET: optionalEnv(z.string().min(1).optional()).describe(
    "The Google OAuth app's client secret.",
  ),
  GOOGLE_ISSUER_URL: optionalEnv(z.url().default('https://accounts.google.com')).describe(
    "Google's OpenID issuer; a test points it at a local fake.",
  ),
  GITHUB_CLIENT_ID: optionalEnv(z.string().min(1).optional()).describe(
    "The GitHub OAuth app's client id; unset (or without its secret), GitHub sign-in answers that it is not configured.",
  ),
  GITHUB_CLIENT_SECRET: optionalEnv(z.string().min(1).optional()).describe(
    "The GitHub OAuth app's client secret.",
  ),
  GITHUB_URL: optionalEnv(z.url().default('https://github.com')).describe(
    "GitHub's web address (its authorization page); a test points it at a local fake.",
  ),
  GITHUB_API_URL: optionalEnv(z.url().default('https://api.github.com')).describe(
    "GitHub's API (the user and their e-mail addresses); a test points it at a local fake.",
  ),
});
export type BrokerEnv = z.output<typeof brokerEnvSchema>;

/** The brokers whose OAuth app credentials are configured. */
export function brokersFrom(env: BrokerEnv): Partial<Record<BrokerAlias, Broker>> {
  const brokers: Partial<Record<BrokerAlias, Broker>> = {};
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    brokers.google = new GoogleBroker({
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      baseUrl: env.GOOGLE_ISSUER_URL,
    });
  }
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) {
    brokers.github = new GithubBroker({
      clientId: env.GITHUB_CLIENT_ID,
      clientSecret: env.GITHUB_CLIENT_SECRET,
      baseUrl: env.GITHUB_URL,
      apiUrl: env.GITHUB_API_URL,
    });
  }
  return brokers;
}
