import preset from '../jest.preset.js';

export default {
  ...preset,
  displayName: 'web',
  rootDir: '.',
  testEnvironment: 'jsdom',
  setupFiles: ['<rootDir>/src/test/setup.ts'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx'],
};
