export { type IdentityServiceOptions, IdentityServiceModule } from './identity-service.module.js';
export { identityEnvSchema, keycloakSettings } from './identity.config.js';
export {
  KeycloakClient,
  KeycloakError,
  type KeycloakSettings,
} from './keycloak/keycloak.client.js';
export {
  type Broker,
  type BrokerAlias,
  brokerEnvSchema,
  brokersFrom,
  createEmbeddedIssuer,
  type EmbeddedIssuerOptions,
  issuerRoutes,
  type RunningIssuer,
  serveEmbeddedIssuer,
  type ServedIssuer,
} from './issuer/index.js';
