export { start, type RunningServer, type StartOptions } from './server.js';
export { StoreLockedError } from './store/lock.js';
