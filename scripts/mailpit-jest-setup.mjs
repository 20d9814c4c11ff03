// Jest's global setup for the tiers whose suites read mail: one Mailpit (scripts/mailpit.mjs, a
// real SMTP server) for the run, whose addresses the suites read from MAILPIT_TEST_URL (its API)
// and MAILPIT_TEST_SMTP_PORT. scripts/mailpit-jest-teardown.mjs stops it.
import { startMailpit } from './mailpit.mjs';

export default async function globalSetup() {
  const mailpit = await startMailpit();
  globalThis.__MAILPIT__ = mailpit;
  process.env.MAILPIT_TEST_URL = mailpit.url;
  process.env.MAILPIT_TEST_SMTP_PORT = String(mailpit.smtpPort);
}
