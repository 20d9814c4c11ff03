export * from './subjects.js';
export * from './contract.js';
export * from './health.contract.js';
export * from './catalog.contract.js';
export * from './identity.contract.js';
export * from './streams.js';
export * from './usage.contract.js';
export * from './generation.contract.js';
