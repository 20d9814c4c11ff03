import preset from '../../jest.preset.js';

/** The usage service's handlers over the in-process transport, against the embedded store. */
export default {
  ...preset,
  displayName: 'usage:integration',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30_000,
};
