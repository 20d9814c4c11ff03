import preset from '../../jest.preset.js';

/** The identity service's handlers and its Keycloak client against the embedded issuer and store. */
export default {
  ...preset,
  displayName: 'identity:integration',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30_000,
};
