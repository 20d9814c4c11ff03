import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Broker, BrokerAlias } from './brokers.js';
import { OAuthError } from './errors.js';
import type { SigningKey } from './keys.js';
import type { RealmSettings } from './realm.js';
import type { RealmStore } from './store.js';

/** The client an action token names when the admin API was given none. */
export const ACCOUNT_CLIENT = 'account';

/** The brokered providers that are configured, and the web origins clients may return to. */
export interface Federation {
  readonly brokers: Partial<Record<BrokerAlias, Broker>>;
  /** Origins (besides the issuer's own) that redirect URIs may point at, as `${WEB_ORIGIN}/*`. */
  readonly webOrigins: readonly string[];
}

/**
 * What the issuer's endpoints share: the realm's settings, store, signing key, URL and clock,
 * and the checks more than one of them makes (a bearer token, a redirect URI).
 */
export class IssuerContext {
  constructor(
    readonly settings: RealmSettings,
    readonly store: RealmStore,
    readonly key: SigningKey,
    /**
     * The realm's URL, e.g. http://localhost:3000/auth/realms/debate: the tokens' `iss`. A
     * function when the server's address is known only once it listens (port 0).
     */
    private readonly realmUrl: string | (() => string),
    readonly now: () => number,
    readonly federation: Federation,
  ) {}

  get issuerUrl(): string {
    return typeof this.realmUrl === 'string' ? this.realmUrl : this.realmUrl();
  }

  jwks(): { keys: object[] } {
    return { keys: [this.key.publicJwk] };
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

  /** Whether a client may be sent back to `redirectUri` (Keycloak's `${WEB_ORIGIN}/*`). */
  allowedRedirect(redirectUri: string | undefined): redirectUri is string {
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

  /** Where a provider sends the browser back: Keycloak's broker endpoint. */
  brokerEndpoint(alias: BrokerAlias): string {
    return `${this.issuerUrl}/broker/${alias}/endpoint`;
  }
}
