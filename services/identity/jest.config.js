import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'identity',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // A Mailpit for the embedded issuer's mail (MAILPIT_TEST_URL, MAILPIT_TEST_SMTP_PORT).
  globalSetup: '<rootDir>/../../scripts/mailpit-jest-setup.mjs',
  globalTeardown: '<rootDir>/../../scripts/mailpit-jest-teardown.mjs',
};
