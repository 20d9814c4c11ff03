import { hash, verify } from '@node-rs/argon2';
import { jwtVerify, SignJWT, createLocalJWKSet, type JWTPayload } from 'jose';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type Broker,
  type BrokerAlias,
  type BrokeredIdentity,
  BrokerError,
  brokerNames,
} from './brokers.js';
import type { SigningKey } from './keys.js';
import { passwordPolicyError, type RealmSettings } from './realm.js';
import {
  EmailTakenError,
  hashToken,
  newRefreshToken,
  type RealmStore,
  type RealmUser,
} from './store.js';

/** An OAuth error as Keycloak's token endpoint answers it. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  refresh_expires_in?: number;
  token_type: 'Bearer';
  scope: string;
  session_state?: string;
}

const SCOPE = 'openid email profile';
const FLOW_SECONDS = 600;
const CODE_SECONDS = 60;

/** The brokered providers that are configured, and the web origins clients may return to. */
export interface Federation {
  readonly brokers: Partial<Record<BrokerAlias, Broker>>;
  /** Origins (besides the issuer's own) that redirect URIs may point at, as `${WEB_ORIGIN}/*`. */
  readonly webOrigins: readonly string[];
}

/** What the authorization endpoint receives. */
export interface AuthorizationRequest {
  readonly client_id?: string | undefined;
  readonly response_type?: string | undefined;
  readonly redirect_uri?: string | undefined;
  readonly state?: string | undefined;
  readonly code_challenge?: string | undefined;
  readonly code_challenge_method?: string | undefined;
  readonly kc_idp_hint?: string | undefined;
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** The client's redirect URI with the answer (code or error) and its state in the query. */
function answer(redirectUri: string, fields: Record<string, string | null | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(fields)) {
    if (value !== null && value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
}
const SERVICE_ROLES = ['manage-users', 'view-users'];

/**
 * The token logic of the embedded issuer: the password, refresh_token and client_credentials
 * grants, brute-force lockout, logout and the admin API's user creation, with Keycloak's claims.
 */
export class EmbeddedIssuer {
  private readonly dummyHash = hash(randomUUID());

  constructor(
    readonly settings: RealmSettings,
    private readonly store: RealmStore,
    private readonly key: SigningKey,
    /**
     * The realm's URL, e.g. http://localhost:3000/auth/realms/debate: the tokens' `iss`. A
     * function when the server's address is known only once it listens (port 0).
     */
    private readonly realmUrl: string | (() => string),
    private readonly serviceSecret: string,
    private readonly now: () => number = Date.now,
    private readonly federation: Federation = { brokers: {}, webOrigins: [] },
  ) {}

  get issuerUrl(): string {
    return typeof this.realmUrl === 'string' ? this.realmUrl : this.realmUrl();
  }

  jwks(): { keys: object[] } {
    return { keys: [this.key.publicJwk] };
  }

  private async sign(claims: JWTPayload, subject: string, lifetime: number): Promise<string> {
    const issuedAt = Math.floor(this.now() / 1000);
    return new SignJWT({ ...claims, typ: 'Bearer' })
      .setProtectedHeader({ alg: 'RS256', kid: this.key.kid, typ: 'JWT' })
      .setIssuer(this.issuerUrl)
      .setSubject(subject)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetime)
      .setJti(randomUUID())
      .sign(this.key.privateKey);
  }

  private userClaims(user: RealmUser, clientId: string, sessionId: string): JWTPayload {
    return {
      aud: 'account',
      azp: clientId,
      sid: sessionId,
      scope: SCOPE,
      email: user.email,
      email_verified: false,
      preferred_username: user.email,
      ...(user.displayName ? { name: user.displayName } : {}),
      ...(user.photoURL ? { picture: user.photoURL } : {}),
      realm_access: { roles: ['user', `default-roles-${this.settings.name}`] },
    };
  }

  /** Verifies an access token of this realm (signature, issuer, expiry). */
  async verifyAccessToken(token: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, createLocalJWKSet(this.jwks() as never), {
        issuer: this.issuerUrl,
        algorithms: ['RS256'],
        currentDate: new Date(this.now()),
      });
      return payload;
    } catch {
      throw new OAuthError(401, 'invalid_token', 'Token verification failed');
    }
  }

  private checkPublicClient(clientId: string | undefined): string {
    if (clientId !== this.settings.webClientId) {
      throw new OAuthError(
        401,
        'unauthorized_client',
        'Invalid client or Invalid client credentials',
      );
    }
    return clientId;
  }

  async passwordGrant(
    clientId: string | undefined,
    email: string,
    password: string,
  ): Promise<TokenResponse> {
    const client = this.checkPublicClient(clientId);
    const user = await this.store.findUserByEmail(email);
    // Keycloak answers a wrong password, an unknown user and a locked account alike.
    const invalid = new OAuthError(400, 'invalid_grant', 'Invalid user credentials');
    if (!user || user.passwordHash === null) {
      await verify(await this.dummyHash, password); // the same cost as for a real user
      throw invalid;
    }
    const locked = user.lockedUntil !== null && user.lockedUntil.getTime() > this.now();
    const correct = await verify(user.passwordHash, password);
    if (!correct) {
      if (user.enabled && !locked) await this.recordFailure(user);
      throw invalid;
    }
    if (!user.enabled) throw new OAuthError(400, 'invalid_grant', 'Account disabled');
    if (locked) throw invalid;
    if (user.failures > 0 || user.lockedUntil) await this.store.clearFailures(user._id);
    return this.openSession(user, client);
  }

  /**
   * Keycloak's brute-force detection: a second failure within the quick-login window locks the
   * account for the minimum wait; every failureFactor-th failure locks it for a growing wait.
   */
  private async recordFailure(user: RealmUser): Promise<void> {
    const { bruteForce } = this.settings;
    if (!bruteForce.enabled) return;
    const now = this.now();
    const { failures, previousFailureAt } = await this.store.recordFailure(user._id, new Date(now));
    let waitSeconds = 0;
    if (previousFailureAt && now - previousFailureAt.getTime() < bruteForce.quickLoginCheckMs) {
      waitSeconds = bruteForce.minimumQuickLoginWaitSeconds;
    }
    if (failures % bruteForce.failureFactor === 0) {
      waitSeconds = Math.max(
        waitSeconds,
        Math.min(
          bruteForce.waitIncrementSeconds * (failures / bruteForce.failureFactor),
          bruteForce.maxWaitSeconds,
        ),
      );
    }
    if (waitSeconds > 0) {
      await this.store.lockUntil(user._id, new Date(now + waitSeconds * 1000));
    }
  }

  private async openSession(user: RealmUser, clientId: string): Promise<TokenResponse> {
    const refreshToken = newRefreshToken();
    const session = await this.store.startSession(user._id, clientId, refreshToken);
    return this.tokensFor(user, clientId, session._id, refreshToken);
  }

  private async tokensFor(
    user: RealmUser,
    clientId: string,
    sessionId: string,
    refreshToken: string,
  ): Promise<TokenResponse> {
    const lifetime = this.settings.accessTokenSeconds;
    return {
      access_token: await this.sign(this.userClaims(user, clientId, sessionId), user._id, lifetime),
      expires_in: lifetime,
      refresh_token: refreshToken,
      refresh_expires_in: this.settings.sessionIdleSeconds,
      token_type: 'Bearer',
      scope: SCOPE,
      session_state: sessionId,
    };
  }

  async refreshGrant(clientId: string | undefined, refreshToken: string): Promise<TokenResponse> {
    const client = this.checkPublicClient(clientId);
    const next = newRefreshToken();
    const now = this.now();
    const session = await this.store.rotate(refreshToken, client, next, {
      usedSince: new Date(now - this.settings.sessionIdleSeconds * 1000),
      startedSince: new Date(now - this.settings.sessionMaxSeconds * 1000),
    });
    if (!session) throw await this.refreshRefusal(refreshToken, client);
    const user = await this.store.findUser(session.userId);
    if (!user || !user.enabled) throw new OAuthError(400, 'invalid_grant', 'Token is not active');
    return this.tokensFor(user, client, session._id, next);
  }

  /**
   * Why a refresh token did not rotate, in Keycloak's words. A token the session has already
   * swapped for a newer one is a replay (refreshTokenMaxReuse 0): the session ends, as in
   * Keycloak, so a stolen token and the one it was stolen from both stop working.
   */
  private async refreshRefusal(refreshToken: string, clientId: string): Promise<OAuthError> {
    const session = await this.store.findSessionByToken(refreshToken);
    const refusal = (description: string) => new OAuthError(400, 'invalid_grant', description);
    if (!session) return refusal('Invalid refresh token');
    if (session.clientId !== clientId) return refusal('Invalid refresh token');
    if (session.revokedFor === 'reuse') return refusal("Session doesn't have required client");
    if (session.revokedAt) return refusal('Session not active');
    if (session.refreshHash !== hashToken(refreshToken)) {
      await this.store.endSession(session._id, 'reuse');
      return refusal('Maximum allowed refresh token reuse exceeded');
    }
    return refusal('Token is not active');
  }

  async clientCredentialsGrant(
    clientId: string | undefined,
    secret: string | undefined,
  ): Promise<TokenResponse> {
    if (clientId !== this.settings.serviceClientId || secret !== this.serviceSecret) {
      throw new OAuthError(
        401,
        'unauthorized_client',
        'Invalid client or Invalid client credentials',
      );
    }
    const lifetime = this.settings.accessTokenSeconds;
    const token = await this.sign(
      {
        aud: 'realm-management',
        azp: clientId,
        scope: 'profile email',
        preferred_username: `service-account-${clientId}`,
        resource_access: { 'realm-management': { roles: SERVICE_ROLES } },
      },
      `service-account-${clientId}`,
      lifetime,
    );
    return {
      access_token: token,
      expires_in: lifetime,
      token_type: 'Bearer',
      scope: 'profile email',
    };
  }

  /** Ends the session of a refresh token; a session ended already is no error, as in Keycloak. */
  async logout(clientId: string | undefined, refreshToken: string): Promise<void> {
    this.checkPublicClient(clientId);
    const session = await this.store.findSessionByToken(refreshToken);
    if (!session) throw new OAuthError(400, 'invalid_grant', 'Invalid refresh token');
    await this.store.endSession(session._id, 'logout');
  }

  async userinfo(accessToken: string): Promise<Record<string, unknown>> {
    const claims = await this.verifyAccessToken(accessToken);
    if (!claims['sid']) throw new OAuthError(401, 'invalid_token', 'Token verification failed');
    return {
      sub: claims.sub,
      email: claims['email'],
      email_verified: claims['email_verified'],
      preferred_username: claims['preferred_username'],
    };
  }

  /** Whether a client may be sent back to `redirectUri` (Keycloak's `${WEB_ORIGIN}/*`). */
  private allowedRedirect(redirectUri: string | undefined): redirectUri is string {
    if (!redirectUri) return false;
    let origin: string;
    try {
      origin = new URL(redirectUri).origin;
    } catch {
      return false;
    }
    return origin === new URL(this.issuerUrl).origin || this.federation.webOrigins.includes(origin);
  }

  /**
   * GET …/protocol/openid-connect/auth: the authorization-code flow with PKCE, for brokered
   * sign-in (kc_idp_hint names the provider). Returns where to send the browser: the provider,
   * or the client with an error. A bad client or redirect URI is never redirected to (an
   * OAuthError, shown as a page).
   */
  async authorize(request: AuthorizationRequest): Promise<string> {
    const client = this.checkPublicClient(request.client_id);
    if (!this.allowedRedirect(request.redirect_uri)) {
      throw new OAuthError(400, 'invalid_request', 'Invalid parameter: redirect_uri');
    }
    const redirectUri = request.redirect_uri;
    const fail = (error: string, description: string) =>
      answer(redirectUri, { error, error_description: description, state: request.state });
    if (request.response_type !== 'code') {
      return fail('unsupported_response_type', 'Only the authorization-code flow is supported');
    }
    if (!request.code_challenge || request.code_challenge_method !== 'S256') {
      return fail('invalid_request', 'Missing parameter: code_challenge_method (S256)');
    }
    const alias = request.kc_idp_hint;
    if (alias !== 'google' && alias !== 'github') {
      return fail(
        'invalid_request',
        'This realm signs in through Google or GitHub here (kc_idp_hint)',
      );
    }
    const broker = this.federation.brokers[alias];
    if (!broker) {
      return fail(
        'temporarily_unavailable',
        `${brokerNames[alias]} sign-in is not configured on this server (its OAuth app credentials are not set)`,
      );
    }
    const state = randomBytes(24).toString('base64url');
    const nonce = randomBytes(16).toString('base64url');
    const brokerVerifier = randomBytes(32).toString('base64url');
    await this.store.saveFlow({
      _id: state,
      alias,
      clientId: client,
      clientRedirectUri: redirectUri,
      clientState: request.state ?? null,
      codeChallenge: request.code_challenge,
      brokerVerifier,
      nonce,
      createdAt: new Date(this.now()),
    });
    try {
      return await broker.authorizationUrl({
        state,
        nonce,
        codeChallenge: s256(brokerVerifier),
        redirectUri: this.brokerEndpoint(alias),
      });
    } catch (error) {
      return fail(
        'temporarily_unavailable',
        `${brokerNames[alias]} cannot be reached: ${(error as Error).message}`,
      );
    }
  }

  /** Where a provider sends the browser back: Keycloak's broker endpoint. */
  brokerEndpoint(alias: BrokerAlias): string {
    return `${this.issuerUrl}/broker/${alias}/endpoint`;
  }

  /**
   * GET …/broker/{alias}/endpoint: the provider's answer. Finds or creates the realm user the
   * provider account belongs to, then sends the browser back to the client with a code.
   */
  async brokerCallback(
    alias: BrokerAlias,
    query: {
      code?: string | undefined;
      state?: string | undefined;
      error?: string | undefined;
      error_description?: string | undefined;
    },
  ): Promise<string> {
    const flow = query.state
      ? await this.store.takeFlow(query.state, new Date(this.now() - FLOW_SECONDS * 1000))
      : null;
    if (!flow || flow.alias !== alias) {
      throw new OAuthError(400, 'invalid_request', 'The sign-in expired or was not started here');
    }
    const name = brokerNames[alias];
    const back = (fields: Record<string, string>) =>
      answer(flow.clientRedirectUri, { ...fields, state: flow.clientState });
    if (query.error || !query.code) {
      return back({
        error: 'access_denied',
        error_description: `${name} did not sign you in${query.error_description ? `: ${query.error_description}` : query.error ? ` (${query.error})` : ''}`,
      });
    }
    const broker = this.federation.brokers[alias];
    if (!broker) {
      return back({
        error: 'temporarily_unavailable',
        error_description: `${name} sign-in is not configured on this server`,
      });
    }
    let user: RealmUser;
    try {
      const identity = await broker.identify(
        query.code,
        flow.brokerVerifier,
        flow.nonce,
        this.brokerEndpoint(alias),
      );
      user = await this.federatedUser(alias, identity);
    } catch (error) {
      if (!(error instanceof BrokerError || error instanceof OAuthError)) throw error;
      return back({ error: 'access_denied', error_description: error.message });
    }
    const code = randomBytes(32).toString('base64url');
    await this.store.saveCode(code, {
      userId: user._id,
      clientId: flow.clientId,
      redirectUri: flow.clientRedirectUri,
      codeChallenge: flow.codeChallenge,
    });
    return back({ code, iss: this.issuerUrl });
  }

  /**
   * The realm user of a provider account: the one linked before; else the user with the same
   * e-mail when the provider vouches for it (the realm trusts their e-mail); else a new user.
   */
  private async federatedUser(alias: BrokerAlias, identity: BrokeredIdentity): Promise<RealmUser> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const linked = await this.store.findLinkedUser(alias, identity.subject);
      if (linked) {
        if (!linked.enabled) throw new OAuthError(400, 'access_denied', 'Account is disabled');
        return linked;
      }
      const profile = { displayName: identity.displayName, photoURL: identity.photoURL };
      let user = await this.store.findUserByEmail(identity.email);
      if (user && !identity.emailVerified) {
        throw new OAuthError(
          400,
          'access_denied',
          `An account with ${identity.email} exists; sign in with its password`,
        );
      }
      if (user) await this.store.fillProfile(user._id, profile);
      else {
        try {
          user = await this.store.createUser(identity.email, null, profile);
        } catch (error) {
          if (error instanceof EmailTakenError) continue; // a concurrent first sign-in won
          throw error;
        }
      }
      if (await this.store.link(alias, identity.subject, user._id)) {
        return (await this.store.findUser(user._id)) ?? user;
      }
    }
    throw new OAuthError(409, 'conflict', 'The sign-in raced another one; try again');
  }

  /** The authorization_code grant: single use, same client and redirect URI, PKCE S256. */
  async codeGrant(
    clientId: string | undefined,
    code: string,
    verifier: string | undefined,
    redirectUri: string | undefined,
  ): Promise<TokenResponse> {
    const client = this.checkPublicClient(clientId);
    const invalid = new OAuthError(400, 'invalid_grant', 'Code not valid');
    const grant = await this.store.takeCode(code, new Date(this.now() - CODE_SECONDS * 1000));
    if (!grant || grant.clientId !== client) throw invalid;
    if (grant.redirectUri !== redirectUri) {
      throw new OAuthError(400, 'invalid_grant', 'Incorrect redirect_uri');
    }
    if (!verifier || s256(verifier) !== grant.codeChallenge) {
      throw new OAuthError(400, 'invalid_grant', 'PKCE verification failed: Invalid code verifier');
    }
    const user = await this.store.findUser(grant.userId);
    if (!user || !user.enabled) throw invalid;
    return this.openSession(user, client);
  }

  /** POST /admin/realms/{realm}/users: only a token with realm-management's manage-users. */
  async createUser(
    accessToken: string | undefined,
    email: string,
    password: string,
  ): Promise<string> {
    if (!accessToken) throw new OAuthError(401, 'HTTP 401 Unauthorized', 'HTTP 401 Unauthorized');
    const claims = await this.verifyAccessToken(accessToken);
    const roles = (claims['resource_access'] as Record<string, { roles?: string[] }> | undefined)?.[
      'realm-management'
    ]?.roles;
    if (!roles?.includes('manage-users'))
      throw new OAuthError(403, 'HTTP 403 Forbidden', 'HTTP 403 Forbidden');
    const policy = passwordPolicyError(this.settings, password, email);
    if (policy) throw new OAuthError(400, policy.error, policy.error_description);
    const user = await this.store.createUser(email, await hash(password));
    return user._id;
  }
}
