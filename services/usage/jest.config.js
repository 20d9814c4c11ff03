import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'usage',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
