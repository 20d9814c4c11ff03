import { optionalEnv, serviceEnvSchema } from '@debate/nest';
import { z } from 'zod';
import { brokerEnvSchema } from './issuer/brokers.js';
import type { KeycloakSettings } from './keycloak/keycloak.client.js';

/** The identity service's environment: the service's own, and where its realm is. */
export const identityEnvSchema = serviceEnvSchema
  .extend(brokerEnvSchema.shape)
  .extend({
    /**
     * Keycloak's base URL as the service reaches it (e.g. http://keycloak:8080). Unset: the
     * service serves the embedded Keycloak-compatible issuer itself, on ISSUER_PORT.
     */
    KEYCLOAK_URL: optionalEnv(z.url().optional()),
    /** …and as the browser reaches it, when that differs. */
    KEYCLOAK_PUBLIC_URL: optionalEnv(z.url().optional()),
    KEYCLOAK_REALM: optionalEnv(z.string().min(1).default('debate')),
    KEYCLOAK_WEB_CLIENT_ID: optionalEnv(z.string().min(1).default('debate-web')),
    KEYCLOAK_CLIENT_ID: optionalEnv(z.string().min(1).default('identity-service')),
    KEYCLOAK_CLIENT_SECRET: optionalEnv(
      z.string().min(16, 'must be the identity-service client secret').optional(),
    ),
    /** The embedded issuer's port and host, and where it keeps its keys. */
    ISSUER_PORT: optionalEnv(z.coerce.number().int().min(0).max(65_535).default(8180)),
    ISSUER_HOST: optionalEnv(z.string().min(1).default('127.0.0.1')),
    DATA_DIR: optionalEnv(z.string().min(1).default('.data')),
    /** The web app's origins the embedded issuer may send the browser back to (comma-separated). */
    WEB_ORIGIN: optionalEnv(
      z
        .string()
        .default('http://localhost:3000,http://127.0.0.1:3000')
        .transform((value) => value.split(',').map((origin) => origin.trim()))
        .pipe(z.array(z.url()).min(1)),
    ),
  })
  .superRefine((env, context) => {
    if (env.KEYCLOAK_URL && !env.KEYCLOAK_CLIENT_SECRET) {
      context.addIssue({
        code: 'custom',
        path: ['KEYCLOAK_CLIENT_SECRET'],
        message: 'is required with KEYCLOAK_URL (the identity-service client secret)',
      });
    }
  });
export type IdentityEnv = z.output<typeof identityEnvSchema>;

/** The realm the service signs in with: Keycloak's URL and secret, or the embedded issuer's. */
export function keycloakSettings(
  env: IdentityEnv,
  realm: { baseUrl: string; serviceSecret: string },
): KeycloakSettings {
  return {
    baseUrl: realm.baseUrl,
    ...(env.KEYCLOAK_PUBLIC_URL ? { publicBaseUrl: env.KEYCLOAK_PUBLIC_URL } : {}),
    realm: env.KEYCLOAK_REALM,
    webClientId: env.KEYCLOAK_WEB_CLIENT_ID,
    serviceClientId: env.KEYCLOAK_CLIENT_ID,
    serviceSecret: realm.serviceSecret,
  };
}
