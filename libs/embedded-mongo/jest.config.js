import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'embedded-mongo',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  testTimeout: 30_000,
};
