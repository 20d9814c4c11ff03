import { describe, expect, it } from '@jest/globals';
import {
  createLocalJWKSet,
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWTPayload,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { bearerToken, InvalidTokenError, TokenVerifier } from './token-verifier.js';

const ISSUER = 'http://localhost:3000/auth/realms/debate';

async function realmKeys() {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'realm-key', alg: 'RS256', use: 'sig' };
  return { privateKey, jwks: createLocalJWKSet({ keys: [jwk] }), publicJwk: jwk };
}

const claims: JWTPayload = {
  typ: 'Bearer',
  email: 'ada@example.org',
  email_verified: true,
  preferred_username: 'ada@example.org',
  realm_access: { roles: ['user'] },
};

interface TokenShape {
  readonly alg?: string;
  readonly issuer?: string;
  readonly subject?: string;
  readonly issuedAt?: number;
  readonly expires?: number | string;
  readonly claims?: JWTPayload;
}

/** A token as the realm would sign it, with what a test changes. */
function signToken(key: CryptoKey | Uint8Array, shape: TokenShape = {}): Promise<string> {
  const token = new SignJWT(shape.claims ?? claims)
    .setProtectedHeader({ alg: shape.alg ?? 'RS256', kid: 'realm-key' })
    .setIssuer(shape.issuer ?? ISSUER)
    .setSubject(shape.subject ?? 'user-1')
    .setExpirationTime(shape.expires ?? '5m');
  if (shape.issuedAt === undefined) token.setIssuedAt();
  else token.setIssuedAt(shape.issuedAt);
  return token.sign(key);
}

describe('TokenVerifier', () => {
  it('accepts a realm access token and reads the user from it', async () => {
    const realm = await realmKeys();
    const token = await signToken(realm.privateKey);
    const verifier = new TokenVerifier({ issuer: ISSUER, jwks: realm.jwks });
    await expect(verifier.verify(token)).resolves.toEqual({
      id: 'user-1',
      email: 'ada@example.org',
      emailVerified: true,
      roles: ['user'],
    });
  });

  it('reads a token without email_verified, or with it false, as not verified', async () => {
    const realm = await realmKeys();
    const verifier = new TokenVerifier({ issuer: ISSUER, jwks: realm.jwks });
    for (const emailVerified of [false, undefined]) {
      const token = await signToken(realm.privateKey, {
        claims: { ...claims, email_verified: emailVerified },
      });
      await expect(verifier.verify(token)).resolves.toMatchObject({ emailVerified: false });
    }
  });

  it.each([
    [
      'expired',
      async (key: CryptoKey) =>
        signToken(key, {
          issuedAt: Math.floor(Date.now() / 1000) - 600,
          expires: Math.floor(Date.now() / 1000) - 300,
        }),
      /expired/,
    ],
    [
      'from another issuer',
      async (key: CryptoKey) =>
        signToken(key, { issuer: 'http://localhost:3000/auth/realms/other' }),
      /not valid/,
    ],
    [
      'signed with another key',
      async () => signToken((await generateKeyPair('RS256')).privateKey),
      /not valid/,
    ],
    [
      'unsigned (alg: none)',
      async () =>
        new UnsecuredJWT(claims)
          .setIssuer(ISSUER)
          .setSubject('user-1')
          .setIssuedAt()
          .setExpirationTime('5m')
          .encode(),
      /not valid/,
    ],
    [
      'a service account token (no e-mail)',
      async (key: CryptoKey) =>
        signToken(key, {
          subject: 'service-account-identity-service',
          claims: { typ: 'Bearer', resource_access: {} },
        }),
      /not a user token/,
    ],
  ])('refuses a token %s', async (_name, make, message) => {
    const realm = await realmKeys();
    const token = await make(realm.privateKey);
    const verifier = new TokenVerifier({ issuer: ISSUER, jwks: realm.jwks });
    const error = await verifier.verify(token).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidTokenError);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses a tampered token (payload changed after signing)', async () => {
    const realm = await realmKeys();
    const token = await signToken(realm.privateKey);
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...claims, iss: ISSUER, sub: 'admin', exp: 9_999_999_999, iat: 1 }),
    ).toString('base64url');
    const verifier = new TokenVerifier({ issuer: ISSUER, jwks: realm.jwks });
    await expect(verifier.verify(`${header}.${forged}.${signature}`)).rejects.toBeInstanceOf(
      InvalidTokenError,
    );
  });

  it('refuses an HS256 token keyed with the public key (algorithm confusion)', async () => {
    const realm = await realmKeys();
    const secret = new TextEncoder().encode(JSON.stringify(realm.publicJwk));
    const token = await signToken(secret, { alg: 'HS256' });
    const verifier = new TokenVerifier({ issuer: ISSUER, jwks: realm.jwks });
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(InvalidTokenError);
  });
});

describe('bearerToken', () => {
  it('reads the token of a Bearer header only', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
