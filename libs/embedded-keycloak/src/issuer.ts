import { hash, verify } from '@node-rs/argon2';
import { jwtVerify, SignJWT, createLocalJWKSet, type JWTPayload } from 'jose';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  type Broker,
  type BrokerAlias,
  type BrokeredIdentity,
  BrokerError,
  brokerNames,
} from './brokers.js';
import type { SigningKey } from './keys.js';
import { type Mailer, type MailSettings, smtpMailer, verifyEmailMessage } from './mail.js';
import { ERROR_HEADER, type RealmPage } from './pages.js';
import { passwordPolicyError, type RealmClient, type RealmSettings } from './realm.js';
import { EmailTakenError, hashToken, type RealmStore, type RealmUser } from './store.js';

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

/**
 * A refusal of the admin API, with Keycloak's body: `{"errorMessage": …}` for a request it
 * refuses, `{"error": …}` for what it does not find.
 */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: { errorMessage: string } | { error: string },
    options?: ErrorOptions,
  ) {
    super('errorMessage' in body ? body.errorMessage : body.error, options);
    this.name = 'AdminError';
  }
}

/** A user as the admin API represents it (the fields this realm keeps). */
export interface UserRepresentation {
  id: string;
  username: string;
  email: string;
  emailVerified: boolean;
  enabled: boolean;
  createdTimestamp: number;
}

/** What a login-actions endpoint answers the browser: a page, or a redirect. */
export type LoginActionAnswer =
  | { readonly status: number; readonly page: RealmPage; readonly setCookie?: string }
  | { readonly status: 302; readonly location: string };

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
/** Keycloak's actionTokenGeneratedByAdminLifespan: 12 hours. */
const ADMIN_ACTION_TOKEN_SECONDS = 43_200;
/** Keycloak's accessCodeLifespanLogin: how long an authentication session lives. */
const AUTH_SESSION_SECONDS = 1800;
const VERIFY_EMAIL = 'verify-email';
/** The client an action token names when the admin API was given none. */
const ACCOUNT_CLIENT = 'account';
/** The clients every Keycloak realm has, besides the realm file's. */
const BUILT_IN_CLIENTS = [
  ACCOUNT_CLIENT,
  'account-console',
  'admin-cli',
  'broker',
  'realm-management',
  'security-admin-console',
];
export const AUTH_SESSION_COOKIE = 'AUTH_SESSION_ID';

const EXPIRED_LINK = 'The link you clicked is no longer valid. It may have expired.';

/** The claims of a verify-email action token (Keycloak's VerifyEmailActionToken). */
interface VerifyEmailClaims {
  readonly sub: string;
  readonly eml: string;
  readonly azp: string;
  readonly reduri?: string;
  /** The authentication session the token is bound to (the second link on). */
  readonly asid?: string;
  readonly exp: number;
}

/**
 * Whether the browser treats the realm's origin as a secure context, so that a `Secure;
 * SameSite=None` cookie is kept: https, or a loopback host, except in Safari, which refuses
 * Secure cookies over http (Keycloak's SecureContextResolver).
 */
function secureContext(realmUrl: string, userAgent: string | undefined): boolean {
  const url = new URL(realmUrl);
  if (url.protocol === 'https:') return true;
  const safari =
    userAgent !== undefined &&
    /Safari\//.test(userAgent) &&
    !/(Chrome|Chromium|CriOS|FxiOS|Firefox|Edg|OPR)\//.test(userAgent);
  if (safari) return false;
  const host = url.hostname.replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

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
const SERVICE_ROLES = ['manage-users', 'view-users', 'view-identity-providers'];

/** An `aud` claim as Keycloak writes it: one audience as a string, more as an array. */
const audience = (audiences: readonly string[]): string | string[] =>
  audiences.length === 1 ? (audiences[0] ?? '') : [...audiences];

/** Whether two secrets are equal, in a time that does not say how much of them is. */
const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(expected).digest(),
  );

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
    /** The realm's SMTP server; without it, send-verify-email fails as Keycloak's does. */
    mail?: MailSettings,
  ) {
    this.mailer = mail ? smtpMailer(mail) : undefined;
  }

  private readonly mailer: Mailer | undefined;

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

  private userClaims(user: RealmUser, client: RealmClient, sessionId: string): JWTPayload {
    return {
      // The client's audience mappers, then Keycloak's own audience of a user's token.
      aud: audience([...client.audiences, ACCOUNT_CLIENT]),
      azp: client.clientId,
      sid: sessionId,
      scope: SCOPE,
      email: user.email,
      email_verified: user.emailVerified === true,
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
      // Action tokens are signed with the same key: only a bearer token is one.
      if (payload['typ'] !== 'Bearer') throw new Error('not a bearer token');
      return payload;
    } catch {
      throw new OAuthError(401, 'invalid_token', 'Token verification failed');
    }
  }

  /**
   * The client a request of the token or logout endpoint names, authenticated as Keycloak does:
   * a public client by its id, a confidential one by its secret too.
   */
  private authenticateClient(
    clientId: string | undefined,
    secret: string | undefined,
  ): RealmClient {
    const client = clientId === undefined ? undefined : this.settings.clients.get(clientId);
    const authenticated =
      client !== undefined &&
      (client.publicClient ||
        (client.clientId === this.settings.serviceClientId &&
          secret !== undefined &&
          sameSecret(secret, this.serviceSecret)));
    if (!client || !authenticated) {
      throw new OAuthError(
        401,
        'unauthorized_client',
        'Invalid client or Invalid client credentials',
      );
    }
    return client;
  }

  /** The password grant, for a client with direct access grants (the identity service's). */
  async passwordGrant(
    clientId: string | undefined,
    secret: string | undefined,
    email: string,
    password: string,
  ): Promise<TokenResponse> {
    const client = this.authenticateClient(clientId, secret);
    if (!client.directAccessGrants) {
      throw new OAuthError(
        400,
        'unauthorized_client',
        'Client not allowed for direct access grants',
      );
    }
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

  private async openSession(user: RealmUser, client: RealmClient): Promise<TokenResponse> {
    const refreshToken = await this.newRefreshToken(user._id, client);
    const session = await this.store.startSession(user._id, client.clientId, refreshToken);
    return this.tokensFor(user, client, session._id, refreshToken);
  }

  /**
   * A refresh token as Keycloak's are: a JWT of type Refresh naming the client it was issued to
   * (`azp`), which the client presents again to renew the session or end it. The session it
   * belongs to is found by its hash; its signature is the realm's, as with Keycloak.
   */
  private async newRefreshToken(userId: string, client: RealmClient): Promise<string> {
    const issuedAt = Math.floor(this.now() / 1000);
    return new SignJWT({ typ: 'Refresh', azp: client.clientId, scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', kid: this.key.kid, typ: 'JWT' })
      .setIssuer(this.issuerUrl)
      .setAudience(this.issuerUrl)
      .setSubject(userId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.settings.sessionIdleSeconds)
      .setJti(randomUUID())
      .sign(this.key.privateKey);
  }

  private async tokensFor(
    user: RealmUser,
    client: RealmClient,
    sessionId: string,
    refreshToken: string,
  ): Promise<TokenResponse> {
    const lifetime = this.settings.accessTokenSeconds;
    return {
      access_token: await this.sign(this.userClaims(user, client, sessionId), user._id, lifetime),
      expires_in: lifetime,
      refresh_token: refreshToken,
      refresh_expires_in: this.settings.sessionIdleSeconds,
      token_type: 'Bearer',
      scope: SCOPE,
      session_state: sessionId,
    };
  }

  /** Renews a session, for the client it was opened by (authenticated as at the start). */
  async refreshGrant(
    clientId: string | undefined,
    secret: string | undefined,
    refreshToken: string,
  ): Promise<TokenResponse> {
    const client = this.authenticateClient(clientId, secret);
    // The next token names the session's user, whom the token's session says.
    const holder = await this.store.findSessionByToken(refreshToken);
    const next = holder ? await this.newRefreshToken(holder.userId, client) : undefined;
    const now = this.now();
    const session = next
      ? await this.store.rotate(refreshToken, client.clientId, next, {
          usedSince: new Date(now - this.settings.sessionIdleSeconds * 1000),
          startedSince: new Date(now - this.settings.sessionMaxSeconds * 1000),
        })
      : null;
    if (!session || !next) throw await this.refreshRefusal(refreshToken, client.clientId);
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
    const client = this.authenticateClient(clientId, secret);
    if (client.clientId !== this.settings.serviceClientId) {
      throw new OAuthError(
        401,
        'unauthorized_client',
        'Invalid client or Invalid client credentials',
      );
    }
    const lifetime = this.settings.accessTokenSeconds;
    const token = await this.sign(
      {
        aud: audience([...client.audiences, 'realm-management']),
        azp: client.clientId,
        scope: 'profile email',
        // Keycloak's user name of the service account, which marks its tokens as not a user's.
        preferred_username: `service-account-${client.clientId}`,
        email_verified: false,
        resource_access: { 'realm-management': { roles: SERVICE_ROLES } },
      },
      `service-account-${client.clientId}`,
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
  async logout(
    clientId: string | undefined,
    secret: string | undefined,
    refreshToken: string,
  ): Promise<void> {
    this.authenticateClient(clientId, secret);
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

  /** The web app's sign-in page, where an error page of a brokered sign-in leads back to. */
  get applicationSignIn(): string {
    return `${this.federation.webOrigins[0] ?? new URL(this.issuerUrl).origin}/login`;
  }

  /**
   * GET …/protocol/openid-connect/auth: the authorization-code flow with PKCE, for brokered
   * sign-in (kc_idp_hint names the provider). Returns where to send the browser: the provider,
   * or the client with an error. A bad client or redirect URI is never redirected to (an
   * OAuthError, shown as a page).
   */
  async authorize(request: AuthorizationRequest): Promise<string> {
    const known =
      request.client_id === undefined ? undefined : this.settings.clients.get(request.client_id);
    if (!known) {
      throw new OAuthError(
        401,
        'unauthorized_client',
        'Invalid client or Invalid client credentials',
      );
    }
    // The realm file's standardFlowEnabled decides, as in Keycloak (the web client only).
    if (!known.standardFlow) {
      throw new OAuthError(
        400,
        'unauthorized_client',
        'Client is not allowed to initiate browser login with given response_type. Standard flow is disabled for the client.',
      );
    }
    const client = known.clientId;
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
      const existing = user !== null;
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
          // Keycloak's trustEmail: the provider's word on the address is the realm's.
          user = await this.store.createUser(identity.email, null, {
            ...profile,
            emailVerified: identity.emailVerified,
          });
        } catch (error) {
          if (error instanceof EmailTakenError) continue; // a concurrent first sign-in won
          throw error;
        }
      }
      if (await this.store.link(alias, identity.subject, user._id)) {
        // Only a provider that vouches for the address is linked to an existing user.
        if (existing && identity.emailVerified) await this.store.markEmailVerified(user._id);
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
    const client = this.authenticateClient(clientId, undefined);
    const invalid = new OAuthError(400, 'invalid_grant', 'Code not valid');
    const grant = await this.store.takeCode(code, new Date(this.now() - CODE_SECONDS * 1000));
    if (!grant || grant.clientId !== client.clientId) throw invalid;
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

  /**
   * The realm-management roles of an admin API caller: 401 without a valid bearer token of this
   * realm.
   */
  private async adminRoles(accessToken: string | undefined): Promise<string[]> {
    const unauthorized = new OAuthError(401, 'HTTP 401 Unauthorized', 'HTTP 401 Unauthorized');
    if (!accessToken) throw unauthorized;
    const claims = await this.verifyAccessToken(accessToken).catch(() => {
      throw unauthorized;
    });
    const roles = (claims['resource_access'] as Record<string, { roles?: string[] }> | undefined)?.[
      'realm-management'
    ]?.roles;
    return Array.isArray(roles) ? roles : [];
  }

  /**
   * The user an admin API call names: 404 for an unknown id to a caller who may query users
   * (403 to others, so ids cannot be probed), 403 without the role the call needs.
   */
  private async adminUser(
    accessToken: string | undefined,
    id: string,
    need: 'view-users' | 'manage-users',
  ): Promise<RealmUser> {
    const roles = await this.adminRoles(accessToken);
    const forbidden = new OAuthError(403, 'HTTP 403 Forbidden', 'HTTP 403 Forbidden');
    const user = await this.store.findUser(id);
    if (!user) {
      if (['manage-users', 'view-users', 'query-users'].some((role) => roles.includes(role))) {
        throw new AdminError(404, { error: 'User not found' });
      }
      throw forbidden;
    }
    const allowed = need === 'view-users' ? ['view-users', 'manage-users'] : ['manage-users'];
    if (!allowed.some((role) => roles.includes(role))) throw forbidden;
    return user;
  }

  /** POST /admin/realms/{realm}/users: only a token with realm-management's manage-users. */
  async createUser(
    accessToken: string | undefined,
    email: string,
    password: string,
    emailVerified = false,
  ): Promise<string> {
    const roles = await this.adminRoles(accessToken);
    if (!roles.includes('manage-users'))
      throw new OAuthError(403, 'HTTP 403 Forbidden', 'HTTP 403 Forbidden');
    const policy = passwordPolicyError(this.settings, password, email);
    if (policy) throw new OAuthError(400, policy.error, policy.error_description);
    const user = await this.store.createUser(email, await hash(password), { emailVerified });
    return user._id;
  }

  /**
   * GET /admin/realms/{realm}/identity-provider/instances: the brokers whose OAuth app is
   * configured, enabled (view- or manage-identity-providers, view- or manage-realm).
   */
  async identityProviders(
    accessToken: string | undefined,
  ): Promise<{ alias: BrokerAlias; providerId: BrokerAlias; enabled: boolean }[]> {
    const roles = await this.adminRoles(accessToken);
    // Keycloak lets the realm's viewers and managers read them too.
    const allowed = [
      'view-identity-providers',
      'manage-identity-providers',
      'view-realm',
      'manage-realm',
    ];
    if (!allowed.some((role) => roles.includes(role)))
      throw new OAuthError(403, 'HTTP 403 Forbidden', 'HTTP 403 Forbidden');
    return (Object.keys(this.federation.brokers) as BrokerAlias[]).map((alias) => ({
      alias,
      providerId: alias,
      enabled: true,
    }));
  }

  /** GET /admin/realms/{realm}/users/{id}: view-users (or manage-users). */
  async getUser(accessToken: string | undefined, id: string): Promise<UserRepresentation> {
    const user = await this.adminUser(accessToken, id, 'view-users');
    return {
      id: user._id,
      username: user.email,
      email: user.email,
      emailVerified: user.emailVerified === true,
      enabled: user.enabled,
      createdTimestamp: new Date(user.createdAt).getTime(),
    };
  }

  /**
   * PUT /admin/realms/{realm}/users/{id}/send-verify-email: mails the user a link (a
   * verify-email action token) that verifies their address and leads back to `redirect_uri`.
   * Keycloak's checks, in its order; resolves once the SMTP server accepted the message.
   */
  async sendVerifyEmail(
    accessToken: string | undefined,
    id: string,
    query: {
      client_id?: string | undefined;
      redirect_uri?: string | undefined;
      lifespan?: number | undefined;
    },
  ): Promise<void> {
    const user = await this.adminUser(accessToken, id, 'manage-users');
    const refuse = (errorMessage: string) => new AdminError(400, { errorMessage });
    if (!user.email) throw refuse('User email missing');
    if (!user.enabled) throw refuse('User is disabled');
    if (query.redirect_uri !== undefined && query.client_id === undefined) {
      throw refuse('Client id missing');
    }
    const clientId = query.client_id ?? ACCOUNT_CLIENT;
    const clients = [this.settings.webClientId, this.settings.serviceClientId, ...BUILT_IN_CLIENTS];
    if (!clients.includes(clientId)) throw refuse("Client doesn't exist");
    // Only the web client has redirect URIs here (`${WEB_ORIGIN}/*`).
    if (
      query.redirect_uri !== undefined &&
      (clientId !== this.settings.webClientId || !this.allowedRedirect(query.redirect_uri))
    ) {
      throw refuse('Invalid redirect uri.');
    }
    const lifespan = query.lifespan ?? ADMIN_ACTION_TOKEN_SECONDS;
    const key = await this.signActionToken({
      sub: user._id,
      eml: user.email,
      azp: clientId,
      ...(query.redirect_uri !== undefined ? { reduri: query.redirect_uri } : {}),
      exp: Math.floor(this.now() / 1000) + lifespan,
    });
    const link = `${this.issuerUrl}/login-actions/action-token?${new URLSearchParams({ key })}`;
    const failed = (cause?: unknown) =>
      new AdminError(500, { errorMessage: 'Failed to send verify email' }, { cause });
    if (!this.mailer) throw failed(new Error('The realm has no SMTP server configured'));
    try {
      await this.mailer.send(
        verifyEmailMessage(user.email, this.settings.displayName, link, lifespan),
      );
    } catch (error) {
      throw failed(error);
    }
  }

  private async signActionToken(claims: VerifyEmailClaims): Promise<string> {
    const { sub, exp, ...rest } = claims;
    return new SignJWT({ ...rest, typ: VERIFY_EMAIL })
      .setProtectedHeader({ alg: 'RS256', kid: this.key.kid, typ: 'JWT' })
      .setIssuer(this.issuerUrl)
      .setAudience(this.issuerUrl)
      .setSubject(sub)
      .setIssuedAt(Math.floor(this.now() / 1000))
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(this.key.privateKey);
  }

  /** A verify-email action token of this realm that has not expired, or null. */
  private async verifyActionToken(key: string | undefined): Promise<VerifyEmailClaims | null> {
    if (!key) return null;
    try {
      const { payload } = await jwtVerify(key, createLocalJWKSet(this.jwks() as never), {
        issuer: this.issuerUrl,
        audience: this.issuerUrl,
        algorithms: ['RS256'],
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'exp'],
      });
      const { sub, exp, eml, azp, reduri, asid } = payload as Record<string, unknown>;
      if (payload['typ'] !== VERIFY_EMAIL) return null;
      if (typeof sub !== 'string' || typeof exp !== 'number') return null;
      if (typeof eml !== 'string' || typeof azp !== 'string') return null;
      return {
        sub,
        exp,
        eml,
        azp,
        ...(typeof reduri === 'string' ? { reduri } : {}),
        ...(typeof asid === 'string' ? { asid } : {}),
      };
    } catch {
      return null;
    }
  }

  /** The path of the realm's URL (the cookie's path, and where the pages' links lead). */
  private get realmPath(): string {
    return new URL(this.issuerUrl).pathname.replace(/\/$/, '');
  }

  private authSessionCookie(id: string, userAgent: string | undefined): string {
    const attributes = secureContext(this.issuerUrl, userAgent)
      ? 'Secure; SameSite=None'
      : 'SameSite=Lax';
    return `${AUTH_SESSION_COOKIE}=${id}; Path=${this.realmPath}/; HttpOnly; ${attributes}`;
  }

  private authSessionsSince(): Date {
    return new Date(this.now() - AUTH_SESSION_SECONDS * 1000);
  }

  /**
   * GET …/login-actions/action-token: a verify-email link followed. A link not yet bound to
   * this browser's authentication session (the mailed one, or one opened elsewhere) starts a
   * session and asks for a confirmation, whose link is bound to it; that link, followed with
   * the session's cookie, verifies the address and goes on to the required-action page.
   */
  async actionToken(
    query: { key?: string | undefined; tab_id?: string | undefined },
    authSessionId: string | undefined,
    userAgent: string | undefined,
  ): Promise<LoginActionAnswer> {
    const token = await this.verifyActionToken(query.key);
    const user = token ? await this.store.findUser(token.sub) : null;
    if (!token || !user || user.email !== token.eml) {
      return { status: 400, page: { header: ERROR_HEADER, message: EXPIRED_LINK } };
    }
    if (!user.enabled) {
      return {
        status: 400,
        page: { header: ERROR_HEADER, message: 'Account is disabled, contact your administrator.' },
      };
    }
    const verifiedAlready = 'Your email address has been verified already.';
    if (user.emailVerified) {
      return { status: 200, page: { header: verifiedAlready, message: verifiedAlready } };
    }
    if (token.asid && authSessionId === token.asid) {
      const session = await this.store.findAuthSession(token.asid, this.authSessionsSince());
      if (session && session.tabId === query.tab_id && session.userId === user._id) {
        await this.store.markEmailVerified(user._id);
        await this.store.finishAuthSession(session._id);
        const next = new URLSearchParams({ client_id: session.clientId, tab_id: session.tabId });
        return {
          status: 302,
          location: `${this.issuerUrl}/login-actions/required-action?${next}`,
        };
      }
    }
    const session = {
      _id: randomBytes(24).toString('base64url'),
      tabId: randomBytes(8).toString('base64url'),
      userId: user._id,
      clientId: token.azp,
      redirectUri: token.reduri ?? null,
      done: false,
      createdAt: new Date(this.now()),
    };
    await this.store.startAuthSession(session);
    const bound = await this.signActionToken({ ...token, asid: session._id });
    const confirm = new URLSearchParams({
      key: bound,
      client_id: token.azp,
      tab_id: session.tabId,
    });
    return {
      status: 200,
      setCookie: this.authSessionCookie(session._id, userAgent),
      page: {
        header: 'Email address validation',
        message: `Confirm validity of e-mail address ${user.email}.`,
        link: {
          href: `${this.realmPath}/login-actions/action-token?${confirm}`,
          text: '» Click here to proceed',
        },
      },
    };
  }

  /**
   * GET …/login-actions/required-action: where a verified address lands. Once per
   * authentication session, which its cookie names.
   */
  async requiredAction(
    query: { tab_id?: string | undefined },
    authSessionId: string | undefined,
  ): Promise<LoginActionAnswer> {
    const session =
      authSessionId && query.tab_id
        ? await this.store.takeFinishedAuthSession(
            authSessionId,
            query.tab_id,
            this.authSessionsSince(),
          )
        : null;
    if (!session) {
      return {
        status: 400,
        page: {
          header: ERROR_HEADER,
          message: 'Cookie not found. Please make sure cookies are enabled in your browser.',
        },
      };
    }
    return {
      status: 200,
      page: {
        header: 'Account updated',
        message: 'Your account has been updated.',
        ...(session.redirectUri
          ? { link: { href: session.redirectUri, text: '« Back to Application' } }
          : {}),
      },
    };
  }
}
