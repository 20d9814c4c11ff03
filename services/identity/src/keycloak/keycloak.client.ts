import { decodeJwt } from 'jose';
import { z } from 'zod';

/** Where the realm is and how the identity service identifies itself to it. */
export interface KeycloakSettings {
  /** Keycloak's base URL as this service reaches it, e.g. http://keycloak:8080 or …/auth. */
  readonly baseUrl: string | (() => string);
  /** The base URL the browser reaches (for the authorization redirect); by default `baseUrl`. */
  readonly publicBaseUrl?: string | (() => string);
  readonly realm: string;
  /** The public client of the browser's sign-in through Google or GitHub (authorization code). */
  readonly webClientId: string;
  /**
   * The confidential client the e-mail form signs in through (the password grant, which the
   * public client does not allow) and whose service account creates users.
   */
  readonly serviceClientId: string;
  readonly serviceSecret: string;
}

/** The realm refused: `error` is Keycloak's code, `description` its message for people. */
export class KeycloakError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'KeycloakError';
  }
}

const TokenSet = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  refresh_token: z.string().min(1).optional(),
  refresh_expires_in: z.number().int().nonnegative().optional(),
});
export type TokenSet = z.output<typeof TokenSet>;

const AdminUser = z.object({ emailVerified: z.boolean() });
/** An entry of the admin API's identity-provider/instances (the fields read here). */
const AdminIdentityProviders = z.array(
  z.object({ alias: z.string(), enabled: z.boolean().default(true) }),
);

const ErrorBody = z.object({
  error: z.string().optional(),
  error_description: z.string().optional(),
  errorMessage: z.string().optional(),
});

/** What the identity service reads from a user's access token. */
export interface TokenIdentity {
  readonly id: string;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly displayName?: string | null;
  readonly photoURL?: string | null;
}

const Claims = z.object({
  sub: z.string().min(1),
  email: z.string().min(1),
  email_verified: z.boolean().optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
});

/**
 * Reads who a token names. The token came straight from the realm's token endpoint over the
 * connection this service opened, so it is not verified again here (OIDC Core 3.1.3.7); the
 * gateway verifies every token a browser presents.
 */
export function identityOf(tokens: TokenSet): TokenIdentity {
  const claims = Claims.parse(decodeJwt(tokens.access_token));
  return {
    id: claims.sub,
    email: claims.email,
    emailVerified: claims.email_verified === true,
    ...(claims.name !== undefined ? { displayName: claims.name } : {}),
    ...(claims.picture !== undefined ? { photoURL: claims.picture } : {}),
  };
}

const resolve = (url: string | (() => string)) => (typeof url === 'string' ? url : url());

/** Whom a refresh token was issued to: Keycloak's refresh tokens are JWTs naming it (`azp`). */
const RefreshClaims = z.object({ azp: z.string().min(1) });

/**
 * The identity service's client of the realm: the same code for Keycloak and for the embedded
 * issuer, over Keycloak's HTTP API (token endpoint, logout, admin API).
 */
export class KeycloakClient {
  private serviceToken: { value: string; expiresAt: number } | undefined;

  constructor(
    private readonly settings: KeycloakSettings,
    private readonly fetchImpl: typeof fetch = fetch,
    private readonly now: () => number = Date.now,
  ) {}

  private realmUrl(base = resolve(this.settings.baseUrl)): string {
    return `${base.replace(/\/$/, '')}/realms/${encodeURIComponent(this.settings.realm)}`;
  }

  private async post(url: string, body: URLSearchParams | object, token?: string) {
    return this.send('POST', url, body, token);
  }

  private async send(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body: URLSearchParams | object | undefined,
    token?: string,
  ) {
    const form = body instanceof URLSearchParams;
    return this.fetchImpl(url, {
      method,
      headers: {
        ...(body === undefined
          ? {}
          : { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: form ? body.toString() : JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
  }

  private async refusal(response: Response): Promise<KeycloakError> {
    const text = await response.text();
    let parsed: z.output<typeof ErrorBody> = {};
    try {
      parsed = ErrorBody.parse(JSON.parse(text));
    } catch {
      // Not JSON: keep the status line.
    }
    const description =
      parsed.error_description ?? parsed.errorMessage ?? `HTTP ${response.status}`;
    return new KeycloakError(
      response.status,
      parsed.error ?? `http_${response.status}`,
      description,
    );
  }

  private async tokenRequest(fields: Record<string, string>): Promise<TokenSet> {
    const response = await this.post(
      `${this.realmUrl()}/protocol/openid-connect/token`,
      new URLSearchParams(fields),
    );
    if (!response.ok) throw await this.refusal(response);
    return TokenSet.parse(await response.json());
  }

  /** The confidential client, authenticated by its secret (client_secret_post). */
  private get serviceClient(): Record<string, string> {
    return { client_id: this.settings.serviceClientId, client_secret: this.settings.serviceSecret };
  }

  /**
   * The client a refresh token was issued to, authenticated: the realm renews or ends a session
   * only for the client that opened it (the confidential client for the e-mail form's, the web
   * client for a provider's). A token that names none (not a JWT) goes as the web client's, and
   * the realm refuses it in its own words.
   */
  private clientOf(refreshToken: string): Record<string, string> {
    let azp: string | undefined;
    try {
      azp = RefreshClaims.parse(decodeJwt(refreshToken)).azp;
    } catch {
      azp = undefined;
    }
    return azp === this.settings.serviceClientId
      ? this.serviceClient
      : { client_id: this.settings.webClientId };
  }

  /** The password grant of the e-mail form, through the confidential client. */
  passwordGrant(email: string, password: string): Promise<TokenSet> {
    return this.tokenRequest({
      grant_type: 'password',
      ...this.serviceClient,
      username: email,
      password,
      scope: 'openid email profile',
    });
  }

  refresh(refreshToken: string): Promise<TokenSet> {
    return this.tokenRequest({
      grant_type: 'refresh_token',
      ...this.clientOf(refreshToken),
      refresh_token: refreshToken,
    });
  }

  /** Exchanges an authorization code (with its PKCE verifier) for tokens. */
  codeGrant(code: string, codeVerifier: string, redirectUri: string): Promise<TokenSet> {
    return this.tokenRequest({
      grant_type: 'authorization_code',
      client_id: this.settings.webClientId,
      code,
      code_verifier: codeVerifier,
      redirect_uri: redirectUri,
    });
  }

  /** Ends the session the refresh token belongs to. */
  async logout(refreshToken: string): Promise<void> {
    const response = await this.post(
      `${this.realmUrl()}/protocol/openid-connect/logout`,
      new URLSearchParams({ ...this.clientOf(refreshToken), refresh_token: refreshToken }),
    );
    if (!response.ok) throw await this.refusal(response);
  }

  /** The authorization URL that starts a sign-in through `provider` (Keycloak's kc_idp_hint). */
  authorizationUrl(options: {
    provider: string;
    redirectUri: string;
    state: string;
    codeChallenge: string;
  }): string {
    const base = resolve(this.settings.publicBaseUrl ?? this.settings.baseUrl);
    const url = new URL(`${this.realmUrl(base)}/protocol/openid-connect/auth`);
    url.search = new URLSearchParams({
      client_id: this.settings.webClientId,
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: options.redirectUri,
      state: options.state,
      code_challenge: options.codeChallenge,
      code_challenge_method: 'S256',
      kc_idp_hint: options.provider,
    }).toString();
    return url.toString();
  }

  /** The service account's token (client credentials), reused until shortly before it expires. */
  private async adminToken(): Promise<string> {
    if (this.serviceToken && this.serviceToken.expiresAt > this.now()) {
      return this.serviceToken.value;
    }
    const tokens = await this.tokenRequest({
      grant_type: 'client_credentials',
      ...this.serviceClient,
    });
    this.serviceToken = {
      value: tokens.access_token,
      expiresAt: this.now() + Math.max(0, tokens.expires_in - 30) * 1000,
    };
    return tokens.access_token;
  }

  /** A call of the realm's admin API (`path` under /admin/realms/{realm}) as the service account. */
  private async admin(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: object,
  ): Promise<Response> {
    const url = `${resolve(this.settings.baseUrl).replace(/\/$/, '')}/admin/realms/${encodeURIComponent(this.settings.realm)}${path}`;
    const response = await this.send(method, url, body, await this.adminToken());
    if (response.status !== 401) return response;
    // The cached token may have been revoked or the realm's keys rotated: once more, fresh.
    this.serviceToken = undefined;
    return this.send(method, url, body, await this.adminToken());
  }

  /**
   * Creates an enabled user with a password, its address not verified (the admin API); returns
   * the realm's id for it. 409 when the e-mail is taken.
   */
  async createUser(email: string, password: string): Promise<string> {
    const response = await this.admin('POST', '/users', {
      username: email,
      email,
      enabled: true,
      emailVerified: false,
      credentials: [{ type: 'password', value: password, temporary: false }],
    });
    if (response.status !== 201) throw await this.refusal(response);
    // Keycloak answers the new user's URL: …/users/{id}
    const id = response.headers.get('location')?.split('/').pop();
    if (!id) throw new Error('The realm created a user but did not say its id');
    return decodeURIComponent(id);
  }

  /**
   * The aliases of the realm's enabled identity providers (the admin API; the service account
   * needs realm-management's view-identity-providers).
   */
  async enabledProviders(): Promise<string[]> {
    const response = await this.admin('GET', '/identity-provider/instances');
    if (!response.ok) throw await this.refusal(response);
    return AdminIdentityProviders.parse(await response.json())
      .filter((provider) => provider.enabled)
      .map((provider) => provider.alias);
  }

  /** Whether the realm has the user's address as verified (null: no such user). */
  async emailVerified(userId: string): Promise<boolean | null> {
    const response = await this.admin('GET', `/users/${encodeURIComponent(userId)}`);
    if (response.status === 404) return null;
    if (!response.ok) throw await this.refusal(response);
    return AdminUser.parse(await response.json()).emailVerified;
  }

  /**
   * Has the realm mail the user a link that verifies the address (Keycloak's verify-email action
   * token) and leads back to `redirectUri`, a URL of the web client.
   */
  async sendVerifyEmail(userId: string, redirectUri: string): Promise<void> {
    const query = new URLSearchParams({
      client_id: this.settings.webClientId,
      redirect_uri: redirectUri,
    });
    const response = await this.admin(
      'PUT',
      `/users/${encodeURIComponent(userId)}/send-verify-email?${query.toString()}`,
    );
    if (response.status !== 204) throw await this.refusal(response);
  }
}
