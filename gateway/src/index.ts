export { createGateway } from './create-gateway.js';
export { defaultWebDistDir, type GatewayOptions } from './gateway.options.js';
export {
  defaultGatewayLimits,
  gatewayEnvSchema,
  type GatewayEnv,
  type GatewayLimits,
  gatewayLimitsOf,
} from './config/gateway.config.js';
export {
  type AuthenticatedUser,
  bearerToken,
  InvalidTokenError,
  TokenVerifier,
} from './auth/token-verifier.js';
export { DEFAULT_QUERY_LIMITS, type QueryLimits } from './query-limits/query-limits.js';
