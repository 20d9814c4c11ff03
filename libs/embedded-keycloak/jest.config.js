import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'embedded-keycloak',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // A Mailpit for the issuer's verification mail (MAILPIT_TEST_URL, MAILPIT_TEST_SMTP_PORT).
  globalSetup: '<rootDir>/../../scripts/mailpit-jest-setup.mjs',
  globalTeardown: '<rootDir>/../../scripts/mailpit-jest-teardown.mjs',
};
