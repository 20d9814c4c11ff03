import { hash, verify } from '@node-rs/argon2';
import { jwtVerify, SignJWT, createLocalJWKSet, type JWTPayload } from 'jose';
import { randomUUID } from 'node:crypto';
import type { SigningKey } from './keys.js';
import { passwordPolicyError, type RealmSettings } from './realm.js';
import { newRefreshToken, type RealmStore, type RealmUser } from './store.js';

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
    const invalid = new OAuthError(401, 'invalid_grant', 'Invalid user credentials');
    if (!user || !user.enabled) {
      await verify(await this.dummyHash, password); // the same cost as for a real user
      throw invalid;
    }
    if (user.lockedUntil && user.lockedUntil.getTime() > this.now()) {
      throw new OAuthError(
        400,
        'invalid_grant',
        'Account is temporarily disabled; contact your administrator or retry later',
      );
    }
    if (!(await verify(user.passwordHash, password))) {
      const failures = await this.store.recordFailure(user._id);
      const { bruteForce } = this.settings;
      if (bruteForce.enabled && failures % bruteForce.failureFactor === 0) {
        const wait = Math.min(
          bruteForce.waitIncrementSeconds * (failures / bruteForce.failureFactor),
          bruteForce.maxWaitSeconds,
        );
        await this.store.lockUntil(user._id, new Date(this.now() + wait * 1000));
      }
      throw invalid;
    }
    if (user.failures > 0 || user.lockedUntil) await this.store.clearFailures(user._id);
    return this.openSession(user, client);
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
    const session = await this.store.rotate(refreshToken, next, {
      usedSince: new Date(now - this.settings.sessionIdleSeconds * 1000),
      startedSince: new Date(now - this.settings.sessionMaxSeconds * 1000),
    });
    if (!session || session.clientId !== client) {
      throw new OAuthError(400, 'invalid_grant', 'Token is not active');
    }
    const user = await this.store.findUser(session.userId);
    if (!user || !user.enabled) throw new OAuthError(400, 'invalid_grant', 'Token is not active');
    return this.tokensFor(user, client, session._id, next);
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

  async logout(clientId: string | undefined, refreshToken: string): Promise<void> {
    this.checkPublicClient(clientId);
    if (!(await this.store.revoke(refreshToken))) {
      throw new OAuthError(400, 'invalid_grant', 'Invalid refresh token');
    }
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
