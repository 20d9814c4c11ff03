import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'community',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
