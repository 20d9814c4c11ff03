export { DebatesServiceModule } from './debates-service.module.js';
