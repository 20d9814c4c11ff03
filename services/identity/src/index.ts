export { type IdentityServiceOptions, IdentityServiceModule } from './identity-service.module.js';
export {
  emailVerificationEnvSchema,
  emailVerificationSummary,
  identityEnvSchema,
  keycloakSettings,
} from './identity.config.js';
export type { EmailVerification } from './sessions/sessions.service.js';
export {
  KeycloakClient,
  KeycloakError,
  type KeycloakSettings,
} from './keycloak/keycloak.client.js';
