export { UsageServiceModule } from './usage-service.module.js';
