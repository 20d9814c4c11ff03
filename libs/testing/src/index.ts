export * from './service-under-test.js';
export * from './fake-openai.js';
export * from './debates.js';
