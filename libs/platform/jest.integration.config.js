import preset from '../../jest.preset.js';

/** The services and the gateway as separate NestJS apps: over a real nats-server, and in process. */
export default {
  ...preset,
  displayName: 'integration',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // The real Keycloak's tier runs on its own (npm run test:keycloak).
  testPathIgnorePatterns: [...preset.testPathIgnorePatterns, '<rootDir>/test/keycloak/'],
  // A Mailpit for the suites that send mail (MAILPIT_TEST_URL, MAILPIT_TEST_SMTP_PORT).
  globalSetup: '<rootDir>/../../scripts/mailpit-jest-setup.mjs',
  globalTeardown: '<rootDir>/../../scripts/mailpit-jest-teardown.mjs',
  testTimeout: 30_000,
};
