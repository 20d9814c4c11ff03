import preset from '../../jest.preset.js';

/** The generation service's handlers over the in-process transport, the usage service stood in for. */
export default {
  ...preset,
  displayName: 'generation:integration',
  rootDir: '.',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30_000,
};
