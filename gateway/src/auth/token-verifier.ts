import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { z } from 'zod';

/** Who a valid access token says the caller is. */
export interface AuthenticatedUser {
  readonly id: string;
  readonly email: string;
  /** The token's `email_verified`: the realm's word when the token was issued. */
  readonly emailVerified: boolean;
  readonly roles: readonly string[];
}

/** Why a token was refused; the message is safe to show (it names no secret). */
export class InvalidTokenError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidTokenError';
  }
}

const AccessTokenClaims = z.object({
  sub: z.string().min(1),
  email: z.string().min(3),
  email_verified: z.boolean().optional(),
  typ: z.literal('Bearer'),
  realm_access: z.object({ roles: z.array(z.string()) }).optional(),
});

/**
 * The audience the realm's tokens must name: its audience mapper (`oidc-audience-mapper`) puts it
 * in the tokens of exactly the clients people sign in to the platform through, the web client
 * (Google and GitHub) and the identity service's (the e-mail form), as
 * deploy/keycloak/debate-realm.json declares (the Pulumi realm and the embedded issuer read their
 * mappers from that file; token-verifier.spec checks that they name this value). A token of any
 * other client of the realm (the account console's, a client someone adds) lacks it and is
 * refused.
 */
export const GATEWAY_AUDIENCE = 'debate-gateway';

/** The prefix of a service account's user name in Keycloak (`SERVICE_ACCOUNT_USER_PREFIX`). */
const SERVICE_ACCOUNT_PREFIX = 'service-account-';

/**
 * Whether a token is a client's own, from the client_credentials grant, rather than a user's.
 * The identity service's client carries the audience mapper (its password grant signs users in)
 * and a service account (it creates users), so that account's tokens name the gateway's audience
 * and have a subject: they are refused here by what marks them in Keycloak, not only for lacking
 * an e-mail. Keycloak 26.7 names the service account `service-account-<client id>` in
 * `preferred_username` (what this realm's token carries, tried on the Keycloak tier); a realm
 * whose client has Keycloak's `service_account` client scope also gets its `client_id` claim,
 * filled only in a service account's session, never in a user's.
 */
function isServiceAccountToken(payload: JWTPayload): boolean {
  const { azp, client_id: clientId, preferred_username: username } = payload;
  return (
    clientId !== undefined ||
    (typeof azp === 'string' &&
      typeof username === 'string' &&
      username.toLowerCase() === `${SERVICE_ACCOUNT_PREFIX}${azp}`.toLowerCase())
  );
}

export interface TokenVerifierOptions {
  /**
   * The realm's URL, e.g. http://localhost:3000/auth/realms/debate: the `iss` tokens must carry.
   * A function when it is known only once the server listens.
   */
  readonly issuer: string | (() => string);
  /** Where the realm's public keys are; by default Keycloak's certs endpoint under `issuer`. */
  readonly jwks?: JWTVerifyGetKey;
  readonly clockToleranceSeconds?: number;
  /** The time tokens are checked at; the system clock unless given. */
  readonly now?: () => Date;
}

/**
 * Verifies access tokens offline, against the realm's published keys (fetched once, refreshed
 * when a token names a key id not seen yet). Only RS256 is accepted, so `alg: none` and
 * HMAC-with-the-public-key tokens are refused; the issuer, the audience (a token issued to this
 * app), expiry and Keycloak's claim shapes are checked, and a service account's token is refused
 * though it names the audience. The same code serves Keycloak and the embedded issuer: both
 * publish the same paths. (Not keycloak-connect: Keycloak deprecated that adapter in 2022, and
 * it is built around Connect/Express middleware rather than a verification call a Fastify gateway
 * can make.)
 */
export class TokenVerifier {
  private keys: JWTVerifyGetKey | undefined;

  constructor(private readonly options: TokenVerifierOptions) {
    this.keys = options.jwks;
  }

  private get issuer(): string {
    const { issuer } = this.options;
    return typeof issuer === 'string' ? issuer : issuer();
  }

  async verify(token: string): Promise<AuthenticatedUser> {
    this.keys ??= createRemoteJWKSet(new URL(`${this.issuer}/protocol/openid-connect/certs`), {
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
    });
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        issuer: this.issuer,
        audience: GATEWAY_AUDIENCE,
        algorithms: ['RS256'],
        clockTolerance: this.options.clockToleranceSeconds ?? 5,
        requiredClaims: ['exp', 'iat', 'sub'],
        ...(this.options.now ? { currentDate: this.options.now() } : {}),
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired)
        throw new InvalidTokenError('The session has expired');
      if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'aud')
        throw new InvalidTokenError('The access token was not issued to this app');
      if (error instanceof errors.JOSEError)
        throw new InvalidTokenError('The access token is not valid');
      throw error;
    }
    if (isServiceAccountToken(payload)) {
      throw new InvalidTokenError("The access token is a service account's, not a user's");
    }
    const claims = AccessTokenClaims.safeParse(payload);
    if (!claims.success) throw new InvalidTokenError('The access token is not a user token');
    return {
      id: claims.data.sub,
      email: claims.data.email,
      emailVerified: claims.data.email_verified === true,
      roles: claims.data.realm_access?.roles ?? [],
    };
  }
}

/** The token of an `Authorization: Bearer …` header, if there is one. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}
