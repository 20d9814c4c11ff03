import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'identity',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
