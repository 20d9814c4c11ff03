export { GenerationServiceModule } from './generation-service.module.js';
