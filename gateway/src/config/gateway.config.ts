import {
  logLevelSchema,
  natsIdentityEnvShape,
  natsRequestTimeoutMsSchema,
  natsUrlSchema,
  opsHostSchema,
  opsPortSchema,
  optionalEnv,
} from '@debate/nest';
import { z } from 'zod';
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from '../query-limits/query-limits.js';
import { type RateLimits, defaultRateLimits, rateLimitsSchema } from '@debate/contracts';

const DEFAULT_GATEWAY_LIMITS = {
  bodyLimitBytes: 64 * 1024,
  subscriptionsPerConnection: 5,
  subscriptionsPerAccount: 10,
  connectionInitTimeoutMs: 10_000,
  websocketsPerAddress: 100,
  websocketsPerAccount: 10,
} as const;

const limit = (fallback: number, max: number, description: string) =>
  optionalEnv(z.coerce.number().int().min(1).max(max).default(fallback)).describe(description);

/** The gateway's environment, parsed once at start. */
export const gatewayEnvSchema = z.object({
  PORT: optionalEnv(z.coerce.number().int().min(0).max(65_535).default(3000)).describe(
    'The port the gateway serves GraphQL, the web app and sign-in on.',
  ),
  HOST: optionalEnv(z.string().min(1).default('0.0.0.0')).describe(
    'The address the gateway listens on.',
  ),
  NATS_URL: natsUrlSchema,
  // Both or neither of NATS_USER and NATS_PASSWORD: checked where main.ts loads the schema
  // (checkNatsIdentity), which stays unrefined for `npm start`'s to omit them.
  ...natsIdentityEnvShape,
  LOG_LEVEL: logLevelSchema,
  NATS_REQUEST_TIMEOUT_MS: natsRequestTimeoutMsSchema,
  WEB_DIST_DIR: optionalEnv(z.string().min(1).optional()).describe(
    "The built web app the gateway serves; unset, the repository's web/dist.",
  ),
  AUTH_ISSUER_URL: optionalEnv(z.url().optional()).describe(
    'The realm whose access tokens the gateway accepts, e.g. https://sso.example.org/realms/debate; unset, nobody can sign in.',
  ),
  AUTH_JWKS_URL: optionalEnv(z.url().optional()).describe(
    "The realm's JWKS, when the gateway reaches the realm at another address than the issuer URL in the tokens (in compose: tokens say http://localhost:8080, the gateway reaches http://keycloak:8080); unset, under AUTH_ISSUER_URL.",
  ),
  // Behind a reverse proxy (the Kubernetes Ingress, which ends TLS) the gateway learns the
  // browser's scheme and host from X-Forwarded-*: the sign-in redirect URI is built from them.
  TRUST_PROXY: optionalEnv(
    z
      .string()
      .regex(/^[0-9A-Za-z.:/]+(\s*,\s*[0-9A-Za-z.:/]+)*$/, 'must be true, false or addresses')
      .transform((value): boolean | string =>
        value === 'true' ? true : value === 'false' ? false : value,
      )
      .optional(),
  ).describe(
    "Whose X-Forwarded-* headers the gateway believes: a comma-separated list of addresses, CIDR ranges or proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`: the private ranges), or `true` for any peer; unset, none (the gateway is reached directly).",
  ),
  // The images set it; the session cookies then never go without Secure (session.cookies.ts).
  NODE_ENV: optionalEnv(z.string().optional()).describe(
    'With `production` (the images set it), the session cookies are always `Secure`; otherwise they are `Secure` when the request came over HTTPS, directly or through a proxy TRUST_PROXY names (X-Forwarded-Proto), so that sign-in survives a reload over plain HTTP in development.',
  ),
  RATE_LIMITS: optionalEnv(rateLimitsSchema.optional()).describe(
    'Rate limits by client address, by account and for everyone, over the defaults of docs/limits.md: JSON such as `{"signUp":{"address":"3/1h"}}`, or `off` (a load test\'s own cluster, never a public deployment).',
  ),
  GRAPHQL_MAX_ALIASES: limit(
    DEFAULT_QUERY_LIMITS.maxAliases,
    1_000,
    'The most aliases one GraphQL operation may use; over it the operation is refused before it runs.',
  ),
  GRAPHQL_MAX_DEPTH: limit(
    DEFAULT_QUERY_LIMITS.maxDepth,
    100,
    'The deepest selection one GraphQL operation may make; over it the operation is refused before it runs.',
  ),
  GRAPHQL_MAX_COST: limit(
    DEFAULT_QUERY_LIMITS.maxCost,
    1_000_000,
    'The highest cost one GraphQL operation may add up to; over it the operation is refused before it runs.',
  ),
  GRAPHQL_MAX_DIRECTIVES: limit(
    DEFAULT_QUERY_LIMITS.maxDirectives,
    1_000,
    'The most directives one GraphQL operation may use; over it the operation is refused before it runs.',
  ),
  BODY_LIMIT_BYTES: limit(
    DEFAULT_GATEWAY_LIMITS.bodyLimitBytes,
    16 * 1024 * 1024,
    'The largest request body the gateway reads, in bytes (Fastify answers 413 beyond).',
  ),
  SUBSCRIPTIONS_PER_CONNECTION: limit(
    DEFAULT_GATEWAY_LIMITS.subscriptionsPerConnection,
    1_000,
    'How many live subscriptions (a debate being watched) one WebSocket connection may hold.',
  ),
  SUBSCRIPTIONS_PER_ACCOUNT: limit(
    DEFAULT_GATEWAY_LIMITS.subscriptionsPerAccount,
    10_000,
    'How many live subscriptions (a debate being watched) one account may hold over all its connections.',
  ),
  CONNECTION_INIT_TIMEOUT_MS: limit(
    DEFAULT_GATEWAY_LIMITS.connectionInitTimeoutMs,
    60_000,
    "How long a new WebSocket connection may take to send graphql-ws's connection_init, in milliseconds; then it is closed (4408).",
  ),
  WEBSOCKETS_PER_ADDRESS: limit(
    DEFAULT_GATEWAY_LIMITS.websocketsPerAddress,
    100_000,
    'How many WebSocket connections one client address (an IPv6 /64) may hold open at once on one gateway replica; over it the upgrade is refused with 429.',
  ),
  WEBSOCKETS_PER_ACCOUNT: limit(
    DEFAULT_GATEWAY_LIMITS.websocketsPerAccount,
    10_000,
    'How many WebSocket connections one account may hold open at once on one gateway replica; over it the connection is closed with 1013 before its connection_init is acknowledged.',
  ),
  JETSTREAM_REPLICAS: optionalEnv(z.coerce.number().int().min(1).max(5).optional()).describe(
    "How many NATS servers hold the rate-limit bucket (as the services' JETSTREAM_REPLICAS).",
  ),
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
  /** How long a WebSocket connection may wait before its connection_init (then 4408). */
  readonly connectionInitTimeoutMs: number;
  /** WebSocket connections open at once per client address, on one replica (then 429). */
  readonly websocketsPerAddress: number;
  /** WebSocket connections open at once per account, on one replica (then 1013). */
  readonly websocketsPerAccount: number;
}

/** The variables of the limits (`npm start` reads them too). */
type LimitsEnv = Pick<
  GatewayEnv,
  | 'RATE_LIMITS'
  | 'GRAPHQL_MAX_ALIASES'
  | 'GRAPHQL_MAX_DEPTH'
  | 'GRAPHQL_MAX_COST'
  | 'GRAPHQL_MAX_DIRECTIVES'
  | 'BODY_LIMIT_BYTES'
  | 'SUBSCRIPTIONS_PER_CONNECTION'
  | 'SUBSCRIPTIONS_PER_ACCOUNT'
  | 'CONNECTION_INIT_TIMEOUT_MS'
  | 'WEBSOCKETS_PER_ADDRESS'
  | 'WEBSOCKETS_PER_ACCOUNT'
>;

/** The limits the environment sets. */
export function gatewayLimitsOf(env: LimitsEnv): GatewayLimits {
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
    connectionInitTimeoutMs: env.CONNECTION_INIT_TIMEOUT_MS,
    websocketsPerAddress: env.WEBSOCKETS_PER_ADDRESS,
    websocketsPerAccount: env.WEBSOCKETS_PER_ACCOUNT,
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
