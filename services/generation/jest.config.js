import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'generation',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
