import preset from '../jest.preset.js';

/** Browser tests: the built platform in one process, driven through Debian's Chromium. */
export default {
  ...preset,
  displayName: 'e2e',
  rootDir: '.',
  testMatch: ['<rootDir>/e2e/**/*.e2e.ts'],
  testTimeout: 60_000,
  // A Mailpit for the journeys that read mail (MAILPIT_TEST_URL, MAILPIT_TEST_SMTP_PORT).
  globalSetup: '<rootDir>/../scripts/mailpit-jest-setup.mjs',
  globalTeardown: '<rootDir>/../scripts/mailpit-jest-teardown.mjs',
};
