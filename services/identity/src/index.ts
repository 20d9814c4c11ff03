export { IdentityServiceModule } from './identity-service.module.js';
