import {
  logLevelSchema,
  natsUrlSchema,
  opsHostSchema,
  opsPortSchema,
  optionalEnv,
  timeoutMsSchema,
} from '@debate/nest';
import { z } from 'zod';

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
  /** Health probes and /metrics, apart from the public port. */
  OPS_PORT: opsPortSchema,
  OPS_HOST: opsHostSchema,
});
export type GatewayEnv = z.output<typeof gatewayEnvSchema>;
