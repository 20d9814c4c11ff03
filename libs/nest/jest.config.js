import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'nest',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
