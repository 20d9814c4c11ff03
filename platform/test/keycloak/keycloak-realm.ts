import type { FakeProviders } from '@debate/embedded-keycloak/testing';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { OtherClientToken, RealmUnderTest } from '../sign-in-suite.js';

const realmFile = new URL('../../../deploy/keycloak/debate-realm.json', import.meta.url);

const IdentityProvider = z.looseObject({
  alias: z.string(),
  config: z.record(z.string(), z.string()),
});
const RealmFile = z.object({
  identityProviders: z.array(IdentityProvider),
  identityProviderMappers: z.array(z.looseObject({ identityProviderAlias: z.string() })),
});

function env(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`No Keycloak (${name}): run this tier with \`npm run test:keycloak\``);
  return value;
}

/** The Keycloak this tier's global setup started (test/keycloak/global-setup.mjs). */
export function keycloakRealm(): RealmUnderTest {
  const baseUrl = env('KEYCLOAK_TEST_URL');
  return {
    baseUrl,
    realmUrl: `${baseUrl}/realms/debate`,
    serviceSecret: env('KEYCLOAK_TEST_SECRET'),
    // Its realm mails through the Mailpit the global setup started.
    mailUrl: env('MAILPIT_TEST_URL'),
    // The global teardown stops it.
    close: async () => {},
  };
}

/** A call of the debate realm's admin API as the bootstrap admin; refuses what Keycloak refuses. */
type RealmAdmin = (method: string, path: string, body?: unknown) => Promise<Response>;

async function realmAdmin(): Promise<RealmAdmin> {
  const baseUrl = env('KEYCLOAK_TEST_URL');
  const login = await fetch(`${baseUrl}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'admin-cli',
      username: 'admin',
      password: env('KEYCLOAK_TEST_ADMIN_PASSWORD'),
    }).toString(),
  });
  const { access_token: token } = z.object({ access_token: z.string() }).parse(await login.json());
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}/admin/realms/debate${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) {
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    }
    return response;
  };
}

/** The client the test adds to the realm: not one the platform signs users in through. */
const OTHER_CLIENT = 'another-app';

/**
 * A user's token from another client of the realm, with the same claims as the platform's (the
 * realm's default scopes: sub, email, roles), but not the gateway's audience: a public client
 * with direct access grants, added through the admin API for the test (the account console
 * would give such a token to a signed-in user through its pages).
 */
export const tokenOfAnotherClient: OtherClientToken = async (realm, email, password) => {
  const admin = await realmAdmin();
  const existing = await admin('GET', `/clients?clientId=${OTHER_CLIENT}`);
  if (((await existing.json()) as unknown[]).length === 0) {
    await admin('POST', '/clients', {
      clientId: OTHER_CLIENT,
      publicClient: true,
      directAccessGrantsEnabled: true,
      standardFlowEnabled: false,
    });
  }
  const response = await fetch(`${realm.realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: OTHER_CLIENT,
      username: email,
      password,
      scope: 'openid email profile',
    }).toString(),
  });
  return z.object({ access_token: z.string() }).parse(await response.json()).access_token;
};

/**
 * Points the realm's google and github aliases at the fake providers, through Keycloak's admin
 * API as the bootstrap admin, keeping everything else the realm file says of them (trust, flows,
 * PKCE, scopes, the picture mappers). GitHub: Keycloak's GitHub provider, its base and API URLs
 * moved. Google: Keycloak's Google provider has Google's endpoints built in, so the alias becomes
 * a generic OpenID Connect provider with the same settings, at the fake's endpoints.
 */
export async function pointBrokersAt(providers: FakeProviders): Promise<void> {
  const admin = await realmAdmin();

  const realm = RealmFile.parse(JSON.parse(readFileSync(realmFile, 'utf8')));
  const shape = (alias: string) => {
    const provider = realm.identityProviders.find((entry) => entry.alias === alias);
    if (!provider) throw new Error(`the realm file has no ${alias} provider`);
    return provider;
  };
  const fake = providers.env();

  const github = shape('github');
  await admin('PUT', '/identity-provider/instances/github', {
    ...github,
    enabled: true,
    config: {
      ...github.config,
      clientId: fake['GITHUB_CLIENT_ID'],
      clientSecret: fake['GITHUB_CLIENT_SECRET'],
      baseUrl: providers.githubUrl,
      apiUrl: providers.githubApiUrl,
    },
  });

  const google = shape('google');
  await admin('DELETE', '/identity-provider/instances/google');
  await admin('POST', '/identity-provider/instances', {
    ...google,
    providerId: 'oidc',
    enabled: true,
    config: {
      ...google.config,
      clientId: fake['GOOGLE_CLIENT_ID'],
      clientSecret: fake['GOOGLE_CLIENT_SECRET'],
      issuer: providers.googleIssuer,
      authorizationUrl: `${providers.googleIssuer}/authorize`,
      tokenUrl: `${providers.googleIssuer}/token`,
      jwksUrl: `${providers.googleIssuer}/jwks`,
      useJwksUrl: 'true',
      validateSignature: 'true',
      clientAuthMethod: 'client_secret_post',
    },
  });
  // Deleting the alias deleted its mappers: the realm file's, again.
  for (const mapper of realm.identityProviderMappers) {
    if (mapper.identityProviderAlias === 'google') {
      await admin('POST', '/identity-provider/instances/google/mappers', mapper);
    }
  }
}
