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
  preferred_username: 'ada@example.org',
  realm_access: { roles: ['user'] },
};

describe('TokenVerifier', () => {
  it('accepts a realm access token and reads the user from it', async () => {
    const realm = await realmKeys();
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'realm-key' })
      .setIssuer(ISSUER)
      .setSubject('user-1')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(realm.privateKey);
    const verifier = new TokenVerifier({ issuer: ISSUER, jwks: realm.jwks });
    await expect(verifier.verify(token)).resolves.toEqual({
      id: 'user-1',
      email: 'ada@example.org',
      roles: ['user'],
    });
  });

  it.each([
    [
      'expired',
      async (key: CryptoKey) =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: 'realm-key' })
          .setIssuer(ISSUER)
          .setSubject('user-1')
          .setIssuedAt(Math.floor(Date.now() / 1000) - 600)
          .setExpirationTime(Math.floor(Date.now() / 1000) - 300)
          .sign(key),
      /expired/,
    ],
    [
      'from another issuer',
      async (key: CryptoKey) =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: 'realm-key' })
          .setIssuer('http://localhost:3000/auth/realms/other')
          .setSubject('user-1')
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(key),
      /not valid/,
    ],
    [
      'signed with another key',
      async () =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: 'realm-key' })
          .setIssuer(ISSUER)
          .setSubject('user-1')
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign((await generateKeyPair('RS256')).privateKey),
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
        new SignJWT({ typ: 'Bearer', resource_access: {} })
          .setProtectedHeader({ alg: 'RS256', kid: 'realm-key' })
          .setIssuer(ISSUER)
          .setSubject('service-account-identity-service')
          .setIssuedAt()
          .setExpirationTime('5m')
          .sign(key),
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
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'realm-key' })
      .setIssuer(ISSUER)
      .setSubject('user-1')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(realm.privateKey);
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
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: 'realm-key' })
      .setIssuer(ISSUER)
      .setSubject('user-1')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(secret);
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
