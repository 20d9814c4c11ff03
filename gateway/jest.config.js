import preset from '../jest.preset.js';

export default {
  ...preset,
  displayName: 'gateway',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
