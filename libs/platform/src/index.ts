export * from './service-modules.js';
export * from './start-platform.js';
