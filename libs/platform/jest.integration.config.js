import preset from '../../jest.preset.js';

/** The services and the gateway as separate NestJS apps: over a real nats-server, and in process. */
export default {
  ...preset,
  displayName: 'integration',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30_000,
};
