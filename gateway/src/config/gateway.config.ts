import {
  logLevelSchema,
  natsUrlSchema,
  opsHostSchema,
  opsPortSchema,
  optionalEnv,
  timeoutMsSchema,
} from '@debate/nest';
import { z } from 'zod';
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from '../query-limits/query-limits.js';
import { type RateLimits, defaultRateLimits, rateLimitsSchema } from '@debate/contracts';

export const DEFAULT_GATEWAY_LIMITS = {
  bodyLimitBytes: 64 * 1024,
  subscriptionsPerConnection: 5,
  subscriptionsPerAccount: 10,
} as const;

const limit = (fallback: number, max: number) =>
  optionalEnv(z.coerce.number().int().min(1).max(max).default(fallback));

/** The gateway's environment, parsed once at start. */
export const gatewayEnvSchema = z.object({
  PORT: optionalEnv(z.coerce.number().int().min(0).max(65_535).default(3000)),
  HOST: optionalEnv(z.string().min(1).default('0.0.0.0')),
  NATS_URL: natsUrlSchema,
  LOG_LEVEL: logLevelSchema,
  NATS_REQUEST_TIMEOUT_MS: timeoutMsSchema(5_000),
  HEALTH_TIMEOUT_MS: timeoutMsSchema(2_000),
  GRAPHQL_DRIVER: optionalEnv(z.enum(['mercurius', 'apollo']).default('mercurius')),
  WEB_DIST_DIR: optionalEnv(z.string().min(1).optional()),
  /** The realm URL, e.g. https://sso.example.org/realms/debate; unset: nobody can sign in. */
  AUTH_ISSUER_URL: optionalEnv(z.url().optional()),
  /**
   * The realm's JWKS, when the gateway reaches the realm at another address than the issuer
   * URL in the tokens (in compose: tokens say http://localhost:8080, the gateway reaches
   * http://keycloak:8080). Unset: under AUTH_ISSUER_URL.
   */
  AUTH_JWKS_URL: optionalEnv(z.url().optional()),
  /**
   * Behind a reverse proxy (the Kubernetes Ingress, which ends TLS): whose X-Forwarded-* headers
   * to believe, so the gateway knows the browser's scheme and host (the sign-in redirect URI is
   * built from them). A comma-separated list of addresses, CIDR ranges or proxy-addr's names
   * (`loopback`, `linklocal`, `uniquelocal`: the private ranges), or `true` for any peer.
   * Unset: none (the gateway is reached directly).
   */
  TRUST_PROXY: optionalEnv(
    z
      .string()
      .regex(/^[0-9A-Za-z.:/]+(\s*,\s*[0-9A-Za-z.:/]+)*$/, 'must be true, false or addresses')
      .transform((value): boolean | string =>
        value === 'true' ? true : value === 'false' ? false : value,
      )
      .optional(),
  ),
  /**
   * Rate limits by client address, account and for everyone, over the defaults of
   * rate-limits.ts: JSON such as {"signUp":{"address":"3/1h"}}, or `off` (docs/configuration.md).
   */
  RATE_LIMITS: optionalEnv(rateLimitsSchema.optional()),
  /** What one GraphQL operation may ask for; over a limit it is refused before it runs. */
  GRAPHQL_MAX_ALIASES: limit(DEFAULT_QUERY_LIMITS.maxAliases, 1_000),
  GRAPHQL_MAX_DEPTH: limit(DEFAULT_QUERY_LIMITS.maxDepth, 100),
  GRAPHQL_MAX_COST: limit(DEFAULT_QUERY_LIMITS.maxCost, 1_000_000),
  GRAPHQL_MAX_DIRECTIVES: limit(DEFAULT_QUERY_LIMITS.maxDirectives, 1_000),
  /** The largest request body the gateway reads, in bytes (Fastify answers 413 beyond). */
  BODY_LIMIT_BYTES: limit(DEFAULT_GATEWAY_LIMITS.bodyLimitBytes, 16 * 1024 * 1024),
  /** Live subscriptions (a debate being watched) per WebSocket connection, and per account. */
  SUBSCRIPTIONS_PER_CONNECTION: limit(DEFAULT_GATEWAY_LIMITS.subscriptionsPerConnection, 1_000),
  SUBSCRIPTIONS_PER_ACCOUNT: limit(DEFAULT_GATEWAY_LIMITS.subscriptionsPerAccount, 10_000),
  /** How many NATS servers hold the rate-limit bucket (as the services' JETSTREAM_REPLICAS). */
  JETSTREAM_REPLICAS: optionalEnv(z.coerce.number().int().min(1).max(5).optional()),
  /** Health probes and /metrics, apart from the public port. */
  OPS_PORT: opsPortSchema,
  OPS_HOST: opsHostSchema,
});
export type GatewayEnv = z.output<typeof gatewayEnvSchema>;

/** What the gateway bounds: request rates, operations, bodies and live subscriptions. */
export interface GatewayLimits {
  readonly rateLimits: RateLimits | 'off';
  readonly query: QueryLimits;
  readonly bodyLimitBytes: number;
  readonly subscriptionsPerConnection: number;
  readonly subscriptionsPerAccount: number;
}

/** The limits the environment sets. */
export function gatewayLimitsOf(env: GatewayEnv): GatewayLimits {
  return {
    rateLimits: env.RATE_LIMITS ?? defaultRateLimits(),
    query: {
      maxAliases: env.GRAPHQL_MAX_ALIASES,
      maxDepth: env.GRAPHQL_MAX_DEPTH,
      maxCost: env.GRAPHQL_MAX_COST,
      maxDirectives: env.GRAPHQL_MAX_DIRECTIVES,
    },
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    subscriptionsPerConnection: env.SUBSCRIPTIONS_PER_CONNECTION,
    subscriptionsPerAccount: env.SUBSCRIPTIONS_PER_ACCOUNT,
  };
}

/** The defaults of every limit (as with no variable set). */
export function defaultGatewayLimits(): GatewayLimits {
  return {
    rateLimits: defaultRateLimits(),
    query: DEFAULT_QUERY_LIMITS,
    ...DEFAULT_GATEWAY_LIMITS,
  };
}
