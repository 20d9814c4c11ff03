import preset from '../../jest.preset.js';

/** The community service's handlers and event consumers over the in-process transport, against the embedded store. */
export default {
  ...preset,
  displayName: 'community:integration',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30_000,
};
