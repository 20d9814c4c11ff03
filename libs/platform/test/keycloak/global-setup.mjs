// Starts the real Keycloak (scripts/keycloak.mjs: the pinned Maven Central distribution, on a JDK
// 21+, importing deploy/keycloak's realm) once for the suites of this tier, and hands them where
// it is through the environment.
import { startKeycloak } from '../../../../scripts/keycloak.mjs';

export default async function globalSetup() {
  const keycloak = await startKeycloak({
    env: { WEB_ORIGIN: 'http://127.0.0.1:3000' }, // the suites' WEB_ORIGIN
  });
  globalThis.__KEYCLOAK__ = keycloak;
  process.env.KEYCLOAK_TEST_URL = keycloak.url;
  process.env.KEYCLOAK_TEST_SECRET = keycloak.clientSecret;
  process.env.KEYCLOAK_TEST_ADMIN_PASSWORD = keycloak.admin.password;
  process.stderr.write(`\nKeycloak is ready at ${keycloak.url} (data in ${keycloak.dataDir})\n`);
}
