import type { RealmUnderTest } from '../sign-in-suite.js';

/** The Keycloak this tier's global setup started (test/keycloak/global-setup.mjs). */
export function keycloakRealm(): RealmUnderTest {
  const baseUrl = process.env['KEYCLOAK_TEST_URL'];
  const serviceSecret = process.env['KEYCLOAK_TEST_SECRET'];
  if (!baseUrl || !serviceSecret) {
    throw new Error('No Keycloak: run this tier with `npm run test:keycloak`');
  }
  return {
    baseUrl,
    realmUrl: `${baseUrl}/realms/debate`,
    serviceSecret,
    // The global teardown stops it.
    close: async () => {},
  };
}
