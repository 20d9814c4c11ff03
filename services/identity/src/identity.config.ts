import { optionalEnv, serviceEnvSchema } from '@debate/nest';
import { z } from 'zod';
import { brokerEnvSchema } from './issuer/brokers.js';
import type { MailSettings } from './issuer/mail.js';
import type { KeycloakSettings } from './keycloak/keycloak.client.js';

/** The identity service's environment: the service's own, and where its realm is. */
const flag = (fallback: 'true' | 'false') =>
  optionalEnv(
    z
      .enum(['true', 'false'])
      .default(fallback)
      .transform((value) => value === 'true'),
  );

/**
 * Whether new e-mail accounts verify their address, and the embedded issuer's SMTP server. The
 * same SMTP_* variables fill the realm's smtpServer in Keycloak's environment (its placeholders).
 */
export const mailEnvSchema = z.object({
  /**
   * `required`: a new e-mail account verifies its address (a link the realm mails) before its
   * free debates; for a deployment with mail. `off` (the default): nobody is asked, as in
   * `npm start`, a local demo without mail.
   */
  EMAIL_VERIFICATION: optionalEnv(z.enum(['off', 'required']).default('off')),
  SMTP_HOST: optionalEnv(z.string().min(1).optional()),
  SMTP_PORT: optionalEnv(z.coerce.number().int().min(1).max(65_535).default(25)),
  SMTP_FROM: optionalEnv(z.email().optional()),
  SMTP_FROM_DISPLAY_NAME: optionalEnv(z.string().min(1).default('AI Debate')),
  /** Logs in to the SMTP server when set. */
  SMTP_USER: optionalEnv(z.string().min(1).optional()),
  SMTP_PASSWORD: optionalEnv(z.string().min(1).optional()),
  /** STARTTLS after connecting (port 587), or TLS from the start (port 465). */
  SMTP_STARTTLS: flag('false'),
  SMTP_SSL: flag('false'),
});
export type MailEnv = z.output<typeof mailEnvSchema>;

/** The embedded issuer's SMTP server, when SMTP_HOST names one. */
export function mailSettingsFrom(env: MailEnv): MailSettings | undefined {
  if (!env.SMTP_HOST || !env.SMTP_FROM) return undefined;
  return {
    host: env.SMTP_HOST,
    port: env.SMTP_PORT,
    from: env.SMTP_FROM,
    fromDisplayName: env.SMTP_FROM_DISPLAY_NAME,
    ...(env.SMTP_USER ? { user: env.SMTP_USER } : {}),
    ...(env.SMTP_PASSWORD ? { password: env.SMTP_PASSWORD } : {}),
    security: env.SMTP_SSL ? 'ssl' : env.SMTP_STARTTLS ? 'starttls' : 'none',
  };
}

/** What a start says of e-mail verification (the identity service's and `npm start`'s). */
export function emailVerificationSummary(env: MailEnv): string {
  if (env.EMAIL_VERIFICATION === 'off') {
    return 'E-mail addresses are not verified: no mail is configured (EMAIL_VERIFICATION=off).';
  }
  const through = env.SMTP_HOST ? ` through ${env.SMTP_HOST}:${env.SMTP_PORT}` : '';
  return `New e-mail accounts verify their address before their free debates (the realm mails the link${through}).`;
}

/** The refinements of the mail settings, for every schema that includes them. */
export function checkMailEnv(
  env: MailEnv & { KEYCLOAK_URL?: string | undefined },
  context: z.RefinementCtx,
): void {
  if (env.EMAIL_VERIFICATION === 'required' && !env.KEYCLOAK_URL && !env.SMTP_HOST) {
    context.addIssue({
      code: 'custom',
      path: ['SMTP_HOST'],
      message: 'is required with EMAIL_VERIFICATION=required and the embedded issuer (its mail)',
    });
  }
  if (env.SMTP_HOST && !env.SMTP_FROM) {
    context.addIssue({
      code: 'custom',
      path: ['SMTP_FROM'],
      message: 'is required with SMTP_HOST (the sender of the verification mail)',
    });
  }
  if (env.SMTP_PASSWORD && !env.SMTP_USER) {
    context.addIssue({
      code: 'custom',
      path: ['SMTP_USER'],
      message: 'is required with SMTP_PASSWORD',
    });
  }
  if (env.KEYCLOAK_URL && env.SMTP_HOST) {
    context.addIssue({
      code: 'custom',
      path: ['SMTP_HOST'],
      message:
        "configures the embedded issuer's mail; with KEYCLOAK_URL, Keycloak sends it (set SMTP_* in Keycloak's environment)",
    });
  }
}

export const identityEnvSchema = serviceEnvSchema
  .extend(brokerEnvSchema.shape)
  .extend(mailEnvSchema.shape)
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
    checkMailEnv(env, context);
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
