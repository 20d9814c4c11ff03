import preset from '../jest.preset.js';

/** Browser tests: the built platform in one process, driven through Debian's Chromium. */
export default {
  ...preset,
  displayName: 'e2e',
  rootDir: '.',
  testMatch: ['<rootDir>/e2e/**/*.e2e.ts'],
  testTimeout: 60_000,
};
