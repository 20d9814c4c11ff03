import { WEB_ORIGIN } from './brokered-sign-in-suite.js';
import { startEmbeddedRealm } from './embedded-realm.js';
import { describeEmailVerification } from './verification-suite.js';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the integration tier's global setup sets it`);
  return value;
}

// The embedded issuer held to the suite Keycloak passes (test/keycloak), mailing through the
// Mailpit of this tier's global setup.
describeEmailVerification('the embedded issuer', async () => ({
  ...(await startEmbeddedRealm({
    webOrigins: [WEB_ORIGIN],
    mail: {
      host: '127.0.0.1',
      port: Number(env('MAILPIT_TEST_SMTP_PORT')),
      from: 'debate@example.org',
      security: 'none',
    },
  })),
  mailUrl: env('MAILPIT_TEST_URL'),
}));
