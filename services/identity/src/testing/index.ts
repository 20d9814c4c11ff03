export * from './fake-providers.js';
