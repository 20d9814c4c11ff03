import preset from '../jest.preset.js';

export default {
  ...preset,
  displayName: 'platform',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
