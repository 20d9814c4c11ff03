import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'debates',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
