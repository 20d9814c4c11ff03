export { createGateway, type CreateGatewayOptions, defaultWebDistDir } from './create-gateway.js';
export {
  defaultGatewayLimits,
  gatewayEnvSchema,
  type GatewayEnv,
  type GatewayLimits,
  gatewayLimitsOf,
} from './config/gateway.config.js';
export type { GraphqlDriverName } from './graphql.module.js';
export {
  type AuthenticatedUser,
  bearerToken,
  InvalidTokenError,
  TokenVerifier,
} from './auth/token-verifier.js';
export { DEFAULT_QUERY_LIMITS, type QueryLimits } from './query-limits/query-limits.js';
