export * from './fake-providers.js';
export * from './mailbox.js';
export * from './cookie-jar.js';
