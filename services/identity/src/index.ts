export { IdentityServiceModule } from './identity-service.module.js';
export {
  createEmbeddedIssuer,
  type EmbeddedIssuerOptions,
  issuerRoutes,
  type RunningIssuer,
} from './issuer/index.js';
