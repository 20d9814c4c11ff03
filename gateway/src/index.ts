export { createGateway, type CreateGatewayOptions, defaultWebDistDir } from './create-gateway.js';
export { gatewayEnvSchema, type GatewayEnv } from './config/gateway.config.js';
export type { GraphqlDriverName } from './graphql.module.js';
export {
  type AuthenticatedUser,
  bearerToken,
  InvalidTokenError,
  TokenVerifier,
} from './auth/token-verifier.js';
