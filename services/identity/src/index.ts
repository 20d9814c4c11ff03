export { type IdentityServiceOptions, IdentityServiceModule } from './identity-service.module.js';
export {
  checkMailEnv,
  emailVerificationSummary,
  identityEnvSchema,
  keycloakSettings,
  type MailEnv,
  mailEnvSchema,
  mailSettingsFrom,
} from './identity.config.js';
export type { EmailVerification } from './sessions/sessions.controller.js';
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
  type MailSettings,
  type RunningIssuer,
  serveEmbeddedIssuer,
  type ServedIssuer,
} from './issuer/index.js';
