import preset from '../jest.preset.js';

/**
 * The system tier: the five services and the gateway together, over a real nats-server and in
 * process, as a browser or an operator meets them (sign-in, debates, the community, limits,
 * faults, scaling, tracing).
 */
export default {
  ...preset,
  displayName: 'system',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // The real Keycloak's tier runs on its own (npm run test:keycloak).
  testPathIgnorePatterns: [...preset.testPathIgnorePatterns, '<rootDir>/test/keycloak/'],
  // A Mailpit for the suites that send mail (MAILPIT_TEST_URL, MAILPIT_TEST_SMTP_PORT).
  globalSetup: '<rootDir>/../scripts/mailpit-jest-setup.mjs',
  globalTeardown: '<rootDir>/../scripts/mailpit-jest-teardown.mjs',
  testTimeout: 30_000,
};
