import { hash, verify } from '@node-rs/argon2';
import { SignJWT, type JWTPayload } from 'jose';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { s256 } from './authorize.js';
import { OAuthError } from './errors.js';
import { ACCOUNT_CLIENT, type IssuerContext } from './issuer-context.js';
import { isLocked, recordFailure } from './lockout.js';
import type { RealmClient } from './realm.js';
import { hashToken, type RealmUser } from './store.js';

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
const CODE_SECONDS = 60;
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
 * The token endpoint's grants (password, refresh_token, authorization_code and
 * client_credentials), with Keycloak's claims, and the logout and userinfo endpoints.
 */
export class Tokens {
  private readonly dummyHash = hash(randomUUID());

  constructor(
    private readonly context: IssuerContext,
    private readonly serviceSecret: string,
  ) {}

  private async sign(claims: JWTPayload, subject: string, lifetime: number): Promise<string> {
    const issuedAt = Math.floor(this.context.now() / 1000);
    return new SignJWT({ ...claims, typ: 'Bearer' })
      .setProtectedHeader({ alg: 'RS256', kid: this.context.key.kid, typ: 'JWT' })
      .setIssuer(this.context.issuerUrl)
      .setSubject(subject)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + lifetime)
      .setJti(randomUUID())
      .sign(this.context.key.privateKey);
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
      realm_access: { roles: ['user', `default-roles-${this.context.settings.name}`] },
    };
  }

  /**
   * The client a request of the token or logout endpoint names, authenticated as Keycloak does:
   * a public client by its id, a confidential one by its secret too.
   */
  private authenticateClient(
    clientId: string | undefined,
    secret: string | undefined,
  ): RealmClient {
    const { settings } = this.context;
    const client = clientId === undefined ? undefined : settings.clients.get(clientId);
    const authenticated =
      client !== undefined &&
      (client.publicClient ||
        (client.clientId === settings.serviceClientId &&
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
    const user = await this.context.store.findUserByEmail(email);
    // Keycloak answers a wrong password, an unknown user and a locked account alike.
    const invalid = new OAuthError(400, 'invalid_grant', 'Invalid user credentials');
    if (!user || user.passwordHash === null) {
      await verify(await this.dummyHash, password); // the same cost as for a real user
      throw invalid;
    }
    const locked = isLocked(this.context, user);
    const correct = await verify(user.passwordHash, password);
    if (!correct) {
      if (user.enabled && !locked) await recordFailure(this.context, user);
      throw invalid;
    }
    if (!user.enabled) throw new OAuthError(400, 'invalid_grant', 'Account disabled');
    if (locked) throw invalid;
    if (user.failures > 0 || user.lockedUntil) await this.context.store.clearFailures(user._id);
    return this.openSession(user, client);
  }

  private async openSession(user: RealmUser, client: RealmClient): Promise<TokenResponse> {
    const refreshToken = await this.newRefreshToken(user._id, client);
    const session = await this.context.store.startSession(user._id, client.clientId, refreshToken);
    return this.tokensFor(user, client, session._id, refreshToken);
  }

  /**
   * A refresh token as Keycloak's are: a JWT of type Refresh naming the client it was issued to
   * (`azp`), which the client presents again to renew the session or end it. The session it
   * belongs to is found by its hash; its signature is the realm's, as with Keycloak.
   */
  private async newRefreshToken(userId: string, client: RealmClient): Promise<string> {
    const { key, issuerUrl, settings } = this.context;
    const issuedAt = Math.floor(this.context.now() / 1000);
    return new SignJWT({ typ: 'Refresh', azp: client.clientId, scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuer(issuerUrl)
      .setAudience(issuerUrl)
      .setSubject(userId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + settings.sessionIdleSeconds)
      .setJti(randomUUID())
      .sign(key.privateKey);
  }

  private async tokensFor(
    user: RealmUser,
    client: RealmClient,
    sessionId: string,
    refreshToken: string,
  ): Promise<TokenResponse> {
    const { settings } = this.context;
    const lifetime = settings.accessTokenSeconds;
    return {
      access_token: await this.sign(this.userClaims(user, client, sessionId), user._id, lifetime),
      expires_in: lifetime,
      refresh_token: refreshToken,
      refresh_expires_in: settings.sessionIdleSeconds,
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
    const { store, settings } = this.context;
    const client = this.authenticateClient(clientId, secret);
    // The next token names the session's user, whom the token's session says.
    const holder = await store.findSessionByToken(refreshToken);
    const next = holder ? await this.newRefreshToken(holder.userId, client) : undefined;
    const now = this.context.now();
    const session = next
      ? await store.rotate(refreshToken, client.clientId, next, {
          usedSince: new Date(now - settings.sessionIdleSeconds * 1000),
          startedSince: new Date(now - settings.sessionMaxSeconds * 1000),
        })
      : null;
    if (!session || !next) throw await this.refreshRefusal(refreshToken, client.clientId);
    const user = await store.findUser(session.userId);
    if (!user || !user.enabled) throw new OAuthError(400, 'invalid_grant', 'Token is not active');
    return this.tokensFor(user, client, session._id, next);
  }

  /**
   * Why a refresh token did not rotate, in Keycloak's words. A token the session has already
   * swapped for a newer one is a replay (refreshTokenMaxReuse 0): the session ends, as in
   * Keycloak, so a stolen token and the one it was stolen from both stop working.
   */
  private async refreshRefusal(refreshToken: string, clientId: string): Promise<OAuthError> {
    const session = await this.context.store.findSessionByToken(refreshToken);
    const refusal = (description: string) => new OAuthError(400, 'invalid_grant', description);
    if (!session) return refusal('Invalid refresh token');
    if (session.clientId !== clientId) return refusal('Invalid refresh token');
    if (session.revokedFor === 'reuse') return refusal("Session doesn't have required client");
    if (session.revokedAt) return refusal('Session not active');
    if (session.refreshHash !== hashToken(refreshToken)) {
      await this.context.store.endSession(session._id, 'reuse');
      return refusal('Maximum allowed refresh token reuse exceeded');
    }
    return refusal('Token is not active');
  }

  /** The authorization_code grant: single use, same client and redirect URI, PKCE S256. */
  async codeGrant(
    clientId: string | undefined,
    code: string,
    verifier: string | undefined,
    redirectUri: string | undefined,
  ): Promise<TokenResponse> {
    const { store } = this.context;
    const client = this.authenticateClient(clientId, undefined);
    const invalid = new OAuthError(400, 'invalid_grant', 'Code not valid');
    const grant = await store.takeCode(code, new Date(this.context.now() - CODE_SECONDS * 1000));
    if (!grant || grant.clientId !== client.clientId) throw invalid;
    if (grant.redirectUri !== redirectUri) {
      throw new OAuthError(400, 'invalid_grant', 'Incorrect redirect_uri');
    }
    if (!verifier || s256(verifier) !== grant.codeChallenge) {
      throw new OAuthError(400, 'invalid_grant', 'PKCE verification failed: Invalid code verifier');
    }
    const user = await store.findUser(grant.userId);
    if (!user || !user.enabled) throw invalid;
    return this.openSession(user, client);
  }

  async clientCredentialsGrant(
    clientId: string | undefined,
    secret: string | undefined,
  ): Promise<TokenResponse> {
    const client = this.authenticateClient(clientId, secret);
    if (client.clientId !== this.context.settings.serviceClientId) {
      throw new OAuthError(
        401,
        'unauthorized_client',
        'Invalid client or Invalid client credentials',
      );
    }
    const lifetime = this.context.settings.accessTokenSeconds;
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
    const session = await this.context.store.findSessionByToken(refreshToken);
    if (!session) throw new OAuthError(400, 'invalid_grant', 'Invalid refresh token');
    await this.context.store.endSession(session._id, 'logout');
  }

  async userinfo(accessToken: string): Promise<Record<string, unknown>> {
    const claims = await this.context.verifyAccessToken(accessToken);
    if (!claims['sid']) throw new OAuthError(401, 'invalid_token', 'Token verification failed');
    return {
      sub: claims.sub,
      email: claims['email'],
      email_verified: claims['email_verified'],
      preferred_username: claims['preferred_username'],
    };
  }
}
