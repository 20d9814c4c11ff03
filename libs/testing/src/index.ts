export * from './service-under-test.js';
