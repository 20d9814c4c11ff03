import preset from '../jest.preset.js';

/** The suites that run against the real Keycloak, which the global setup starts once. */
export default {
  ...preset,
  displayName: 'keycloak',
  rootDir: '.',
  testMatch: ['<rootDir>/test/keycloak/**/*.test.ts'],
  globalSetup: '<rootDir>/test/keycloak/global-setup.mjs',
  globalTeardown: '<rootDir>/test/keycloak/global-teardown.mjs',
  testTimeout: 60_000,
};
