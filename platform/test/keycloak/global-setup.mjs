// Starts the real Keycloak (scripts/keycloak.mjs: the pinned Maven Central distribution, on a JDK
// 21+, importing deploy/keycloak's realm) once for the suites of this tier, with its realm's mail
// going to a Mailpit (scripts/mailpit.mjs, a real SMTP server), and hands them where both are
// through the environment.
import { startKeycloak } from '../../../scripts/keycloak.mjs';
import startMail from '../../../scripts/mailpit-jest-setup.mjs';

export default async function globalSetup() {
  await startMail();
  const mailpit = globalThis.__MAILPIT__;
  const keycloak = await startKeycloak({
    env: {
      WEB_ORIGIN: 'http://127.0.0.1:3000', // the suites' WEB_ORIGIN
      SMTP_HOST: mailpit.smtpHost,
      SMTP_PORT: String(mailpit.smtpPort),
      SMTP_FROM: 'debate@example.org',
    },
  });
  globalThis.__KEYCLOAK__ = keycloak;
  process.env.KEYCLOAK_TEST_URL = keycloak.url;
  process.env.KEYCLOAK_TEST_SECRET = keycloak.clientSecret;
  process.env.KEYCLOAK_TEST_ADMIN_PASSWORD = keycloak.admin.password;
  process.stderr.write(
    `\nKeycloak is ready at ${keycloak.url} (data in ${keycloak.dataDir}), its mail at ${mailpit.url}\n`,
  );
}
