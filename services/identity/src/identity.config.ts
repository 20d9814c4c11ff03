import { optionalEnv, serviceEnvSchema } from '@debate/nest';
import { z } from 'zod';
import type { KeycloakSettings } from './keycloak/keycloak.client.js';
import type { EmailVerification } from './sessions/sessions.service.js';

/** Whether a new e-mail account verifies its address before its free debates. */
export const emailVerificationEnvSchema = z.object({
  EMAIL_VERIFICATION: optionalEnv(
    z.enum(['off', 'required'] as const satisfies readonly EmailVerification[]).default('off'),
  ).describe(
    '`required`: a new e-mail account verifies its address (a link the realm mails) before its free debates, for a deployment with mail; `off`: nobody is asked, as in a local demo without mail (docs/limits.md).',
  ),
});

/**
 * What a start says of e-mail verification (the identity service's and `npm start`'s); `mailServer`
 * where the launcher knows the realm's SMTP server.
 */
export function emailVerificationSummary(
  verification: EmailVerification,
  mailServer?: { readonly host: string; readonly port: number },
): string {
  if (verification === 'off') {
    return 'E-mail addresses are not verified: no mail is configured (EMAIL_VERIFICATION=off).';
  }
  const through = mailServer ? ` through ${mailServer.host}:${mailServer.port}` : '';
  return `New e-mail accounts verify their address before their free debates (the realm mails the link${through}).`;
}

/** The identity service's environment: the service's own, and the Keycloak realm it signs in with. */
export const identityEnvSchema = serviceEnvSchema.extend(emailVerificationEnvSchema.shape).extend({
  KEYCLOAK_URL: z
    .url({ error: 'is required: the base URL of the Keycloak the service signs in with' })
    .describe(
      "Keycloak's base URL as the service reaches it, e.g. http://keycloak:8080 (in development the launchers start the embedded issuer and point this at it).",
    ),
  KEYCLOAK_PUBLIC_URL: optionalEnv(z.url().optional()).describe(
    "Keycloak's base URL as the browser reaches it, when that differs from KEYCLOAK_URL.",
  ),
  KEYCLOAK_REALM: optionalEnv(z.string().min(1).default('debate')).describe(
    'The realm the service signs in with.',
  ),
  KEYCLOAK_WEB_CLIENT_ID: optionalEnv(z.string().min(1).default('debate-web')).describe(
    "The realm's public client that the browser's sign-in through Google or GitHub uses (the authorization-code flow).",
  ),
  KEYCLOAK_CLIENT_ID: optionalEnv(z.string().min(1).default('identity-service')).describe(
    "The realm's confidential client that e-mail sign-ins use (the password grant) and whose service account creates users.",
  ),
  KEYCLOAK_CLIENT_SECRET: z
    .string({ error: 'is required: the identity-service client secret' })
    .min(16, 'must be the identity-service client secret')
    .describe("The secret of KEYCLOAK_CLIENT_ID's client in the realm."),
});
export type IdentityEnv = z.output<typeof identityEnvSchema>;

/** The realm the service signs in with. */
export function keycloakSettings(env: IdentityEnv): KeycloakSettings {
  return {
    baseUrl: env.KEYCLOAK_URL,
    ...(env.KEYCLOAK_PUBLIC_URL ? { publicBaseUrl: env.KEYCLOAK_PUBLIC_URL } : {}),
    realm: env.KEYCLOAK_REALM,
    webClientId: env.KEYCLOAK_WEB_CLIENT_ID,
    serviceClientId: env.KEYCLOAK_CLIENT_ID,
    serviceSecret: env.KEYCLOAK_CLIENT_SECRET,
  };
}
