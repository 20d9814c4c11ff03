import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWTPayload,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import {
  bearerToken,
  GATEWAY_AUDIENCE,
  InvalidTokenError,
  TokenVerifier,
} from './token-verifier.js';
import { z } from 'zod';

const ISSUER = 'http://localhost:3000/auth/realms/debate';

async function realmKeys() {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'realm-key', alg: 'RS256', use: 'sig' };
  return { privateKey, jwks: createLocalJWKSet({ keys: [jwk] }), publicJwk: jwk };
}

// A user's token as the realm issues it to the clients people sign in through.
const claims: JWTPayload = {
  typ: 'Bearer',
  aud: [GATEWAY_AUDIENCE, 'account'],
  azp: 'debate-web',
  email: 'ada@example.org',
  email_verified: true,
  preferred_username: 'ada@example.org',
  realm_access: { roles: ['user'] },
};

/**
 * A client_credentials token of the identity service's client, as Keycloak 26.7 issues it for
 * this realm (read off the Keycloak tier): the client's audience mapper names the gateway, and the
 * service account has a subject and realm-management's roles.
 */
const serviceAccount: JWTPayload = {
  typ: 'Bearer',
  aud: [GATEWAY_AUDIENCE, 'realm-management'],
  azp: 'identity-service',
  acr: '1',
  scope: 'profile email',
  email_verified: false,
  preferred_username: 'service-account-identity-service',
  resource_access: { 'realm-management': { roles: ['manage-users', 'view-users'] } },
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
      "of another client of the realm, with a user's claims (the account console's)",
      async (key: CryptoKey) =>
        signToken(key, { claims: { ...claims, aud: 'account', azp: 'account-console' } }),
      /not issued to this app/,
    ],
    [
      'naming no audience',
      async (key: CryptoKey) => signToken(key, { claims: { ...claims, aud: undefined } }),
      /not issued to this app/,
    ],
    [
      "of the identity service's service account, though it names the audience",
      async (key: CryptoKey) =>
        signToken(key, { subject: '5d0c0b4e-1f7a-4d55-9a43-0d6c1e1f0c9a', claims: serviceAccount }),
      /a service account's, not a user's/,
    ],
    [
      "of a service account, even with an e-mail (Keycloak's service-account- user name)",
      async (key: CryptoKey) =>
        signToken(key, { claims: { ...serviceAccount, email: 'ops@example.org' } }),
      /a service account's, not a user's/,
    ],
    [
      "of a service account, even with an e-mail (the service_account scope's client_id)",
      async (key: CryptoKey) =>
        signToken(key, {
          claims: {
            ...serviceAccount,
            email: 'ops@example.org',
            preferred_username: 'ops',
            client_id: 'identity-service',
          },
        }),
      /a service account's, not a user's/,
    ],
    [
      'without an e-mail',
      async (key: CryptoKey) => signToken(key, { claims: { ...claims, email: undefined } }),
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

  it("accepts a user whose e-mail begins like a service account's user name", async () => {
    const realm = await realmKeys();
    const email = 'service-account-fan@example.org';
    const token = await signToken(realm.privateKey, {
      claims: { ...claims, email, preferred_username: email },
    });
    const verifier = new TokenVerifier({ issuer: ISSUER, jwks: realm.jwks });
    await expect(verifier.verify(token)).resolves.toMatchObject({ email });
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

describe('the realm file', () => {
  const RealmClients = z.object({
    clients: z.array(
      z.object({
        clientId: z.string(),
        protocolMappers: z
          .array(
            z.looseObject({ protocolMapper: z.string(), config: z.record(z.string(), z.string()) }),
          )
          .default([]),
      }),
    ),
  });
  // What Keycloak imports; the Pulumi realm and the embedded issuer read their mappers from it.
  const realm = RealmClients.parse(
    JSON.parse(
      readFileSync(new URL('../../../deploy/keycloak/debate-realm.json', import.meta.url), 'utf8'),
    ),
  );
  const audiences = (clientId: string) =>
    (realm.clients.find((client) => client.clientId === clientId)?.protocolMappers ?? [])
      .filter((mapper) => mapper.protocolMapper === 'oidc-audience-mapper')
      .map((mapper) => ({
        audience: mapper.config['included.custom.audience'],
        inAccessToken: mapper.config['access.token.claim'],
      }));

  it('gives the tokens of the clients people sign in through the audience the gateway requires', () => {
    for (const clientId of ['debate-web', 'identity-service']) {
      expect(audiences(clientId)).toEqual([{ audience: GATEWAY_AUDIENCE, inAccessToken: 'true' }]);
    }
  });

  it('names no other audience in any mapper of the realm', () => {
    const named = realm.clients.flatMap((client) =>
      audiences(client.clientId).map((mapper) => mapper.audience),
    );
    expect(new Set(named)).toEqual(new Set([GATEWAY_AUDIENCE]));
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
