export * from './service-under-test.js';
export * from './fake-openai.js';
export * from './fake-search.js';
export * from './debates.js';
export * from './metrics.js';
export * from './tiny-model.js';
