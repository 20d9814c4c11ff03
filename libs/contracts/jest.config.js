import preset from '../../jest.preset.js';

export default {
  ...preset,
  displayName: 'contracts',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
