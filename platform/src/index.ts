export * from './service-modules.js';
export * from './start-platform.js';
export { platformEnvSchema, type PlatformEnv } from './platform.config.js';
