import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import type { IssuerContext } from './issuer-context.js';

const VERIFY_EMAIL = 'verify-email';

/** The claims of a verify-email action token (Keycloak's VerifyEmailActionToken). */
export interface VerifyEmailClaims {
  readonly sub: string;
  readonly eml: string;
  readonly azp: string;
  readonly reduri?: string;
  /** The authentication session the token is bound to (the second link on). */
  readonly asid?: string;
  readonly exp: number;
}

/** A verify-email action token: signed with the realm's key, addressed to the realm itself. */
export async function signActionToken(
  context: IssuerContext,
  claims: VerifyEmailClaims,
): Promise<string> {
  const { sub, exp, ...rest } = claims;
  return new SignJWT({ ...rest, typ: VERIFY_EMAIL })
    .setProtectedHeader({ alg: 'RS256', kid: context.key.kid, typ: 'JWT' })
    .setIssuer(context.issuerUrl)
    .setAudience(context.issuerUrl)
    .setSubject(sub)
    .setIssuedAt(Math.floor(context.now() / 1000))
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(context.key.privateKey);
}

/** A verify-email action token of this realm that has not expired, or null. */
export async function verifyActionToken(
  context: IssuerContext,
  key: string | undefined,
): Promise<VerifyEmailClaims | null> {
  if (!key) return null;
  try {
    const { payload } = await jwtVerify(key, createLocalJWKSet(context.jwks() as never), {
      issuer: context.issuerUrl,
      audience: context.issuerUrl,
      algorithms: ['RS256'],
      currentDate: new Date(context.now()),
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
