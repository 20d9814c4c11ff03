import preset from '../../jest.preset.js';

/** The services and the gateway as separate NestJS apps: over a real nats-server, and in process. */
export default {
  ...preset,
  displayName: 'integration',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // The real Keycloak's tier runs on its own (npm run test:keycloak).
  testPathIgnorePatterns: [...preset.testPathIgnorePatterns, '<rootDir>/test/keycloak/'],
  testTimeout: 30_000,
};
