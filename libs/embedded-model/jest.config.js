import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'embedded-model',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  testTimeout: 120_000,
};
