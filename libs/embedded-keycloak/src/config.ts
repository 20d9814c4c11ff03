import { mongoUrlSchema, optionalEnv } from '@debate/nest';
import { z } from 'zod';
import { brokerEnvSchema } from './brokers.js';
import type { MailSettings } from './mail.js';

const flag = (fallback: 'true' | 'false') =>
  optionalEnv(
    z
      .enum(['true', 'false'])
      .default(fallback)
      .transform((value) => value === 'true'),
  );

/**
 * The SMTP server the embedded issuer mails verify-email links through (Keycloak's realm
 * smtpServer). The same SMTP_* variables fill the realm's smtpServer in Keycloak's environment.
 */
export const mailEnvSchema = z.object({
  SMTP_HOST: optionalEnv(z.string().min(1).optional()).describe(
    'The SMTP server verify-email links are mailed through; unset, no mail is sent.',
  ),
  SMTP_PORT: optionalEnv(z.coerce.number().int().min(1).max(65_535).default(25)).describe(
    "The SMTP server's port.",
  ),
  SMTP_FROM: optionalEnv(z.email().optional()).describe(
    'The sender of the verification mail, required with SMTP_HOST.',
  ),
  SMTP_FROM_DISPLAY_NAME: optionalEnv(z.string().min(1).default('AI Debate')).describe(
    "The sender's name the mail shows.",
  ),
  SMTP_USER: optionalEnv(z.string().min(1).optional()).describe(
    'The user to log in to the SMTP server as; unset, no login.',
  ),
  SMTP_PASSWORD: optionalEnv(z.string().min(1).optional()).describe("SMTP_USER's password."),
  SMTP_STARTTLS: flag('false').describe('STARTTLS after connecting (usually port 587).'),
  SMTP_SSL: flag('false').describe('TLS from the start (usually port 465).'),
});
export type MailEnv = z.output<typeof mailEnvSchema>;

/** The SMTP server, when SMTP_HOST names one. */
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

/**
 * The refinements of the mail settings, for every schema that includes them. With
 * EMAIL_VERIFICATION=required (the identity service's setting, read beside these by a launcher),
 * the embedded issuer is the one that mails the link: it needs a server.
 */
export function checkMailEnv(
  env: MailEnv & { EMAIL_VERIFICATION?: 'off' | 'required' },
  context: z.RefinementCtx,
): void {
  if (env.EMAIL_VERIFICATION === 'required' && !env.SMTP_HOST) {
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
}

export const webOriginSchema = optionalEnv(
  z
    .string()
    .default('http://localhost:3000,http://127.0.0.1:3000')
    .transform((value) => value.split(',').map((origin) => origin.trim()))
    .pipe(z.array(z.url()).min(1)),
).describe("The web app's origins the issuer may send the browser back to.");

/**
 * The embedded issuer is a stand-in for Keycloak in development and tests: its keys and the
 * identity-service secret sit in a data directory, it has no admin console, and it is not held
 * to Keycloak's hardening. Under NODE_ENV=production it refuses to start (every launcher that
 * starts it reads this), so a production deployment cannot sign users in with it by mistake.
 */
export const issuerNodeEnvSchema = z.object({
  NODE_ENV: optionalEnv(
    z
      .string()
      .optional()
      .refine((value) => value !== 'production', {
        message:
          'is production, and the embedded issuer is a development and test stand-in for Keycloak: production signs in with Keycloak (docs/keycloak.md)',
      }),
  ).describe(
    'With `production`, the embedded issuer refuses to start: it stands in for Keycloak in development and tests only.',
  ),
});

/**
 * The embedded issuer as a process of its own (`embedded-keycloak`, what `npm run start:cluster`
 * runs in Keycloak's place): where it listens, keeps its users and keys, and whom it brokers.
 */
export const issuerEnvSchema = brokerEnvSchema
  .extend(mailEnvSchema.shape)
  .extend(issuerNodeEnvSchema.shape)
  .extend({
    MONGO_URL: mongoUrlSchema.describe(
      'The MongoDB server the issuer keeps its users and sessions on, in a database of its own, `keycloak`.',
    ),
    ISSUER_PORT: optionalEnv(z.coerce.number().int().min(0).max(65_535).default(8180)).describe(
      'The port the issuer serves the realm on.',
    ),
    ISSUER_HOST: optionalEnv(z.string().min(1).default('127.0.0.1')).describe(
      'The address the issuer listens on.',
    ),
    DATA_DIR: optionalEnv(z.string().min(1).default('.data')).describe(
      "Where the issuer keeps its signing key and the identity-service client's secret (in DATA_DIR/issuer), relative to the working directory.",
    ),
    KEYCLOAK_CLIENT_SECRET: optionalEnv(
      z.string().min(16, 'must be the identity-service client secret').optional(),
    ).describe(
      "The identity-service client's secret (what the identity service's KEYCLOAK_CLIENT_SECRET holds); unset, one made at the first start and kept in DATA_DIR.",
    ),
    WEB_ORIGIN: webOriginSchema,
    // The identity service's setting: the issuer only needs it to refuse `required` without a
    // mail server (checkMailEnv), as it is the one that mails the link.
    EMAIL_VERIFICATION: optionalEnv(z.enum(['off', 'required']).default('off')).describe(
      "The identity service's EMAIL_VERIFICATION; with `required` the issuer refuses to start without SMTP_HOST.",
    ),
  })
  .superRefine((env, context) => checkMailEnv(env, context));
export type IssuerEnv = z.output<typeof issuerEnvSchema>;
