import preset from '../jest.preset.js';

export default {
  ...preset,
  displayName: 'infra',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  // Pulumi's runtime keeps its mocks and settings process-wide: one file at a time.
  maxWorkers: 1,
  testTimeout: 30_000,
};
