import { exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import { createPublicKey, type JsonWebKey, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  /** The public half, as the JWKS endpoint publishes it. */
  readonly publicJwk: JWK;
}

/**
 * The realm's RS256 key: created once, then read back from `path` on every start, so that
 * tokens stay valid across restarts. The file is written with mode 0600.
 */
export async function loadOrCreateSigningKey(path: string): Promise<SigningKey> {
  let privateJwk: JWK;
  if (existsSync(path)) {
    privateJwk = JSON.parse(readFileSync(path, 'utf8')) as JWK;
  } else {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    privateJwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(privateJwk), { mode: 0o600 });
  }
  const publicJwk: JWK = {
    ...(createPublicKey({ key: privateJwk as JsonWebKey, format: 'jwk' }).export({
      format: 'jwk',
    }) as JWK),
    kid: privateJwk.kid as string,
    alg: 'RS256',
    use: 'sig',
  };
  const privateKey = (await importJWK(privateJwk, 'RS256')) as CryptoKey;
  return { kid: privateJwk.kid as string, privateKey, publicJwk };
}

/** A client secret for the embedded realm: random, made once, kept (mode 0600) in `path`. */
export function loadOrCreateSecret(path: string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, secret, { mode: 0o600 });
  return secret;
}
