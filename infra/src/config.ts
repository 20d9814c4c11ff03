import {
  rateLimitsSchema,
  type ServiceName,
  serviceNames,
  type UsageSettingName,
  usageSettingsSchema,
} from '@debate/contracts';
import * as pulumi from '@pulumi/pulumi';
import { z } from 'zod';

/** The five services, each with its own database and user: the contracts' list. */
export { type ServiceName, serviceNames };

/** A stack's settings (Pulumi.<stack>.yaml); the secrets are Pulumi config secrets. */
export interface StackSettings {
  readonly namespace: string;
  readonly imageRegistry: string;
  readonly imageTag: string;
  /** Where browsers reach the gateway, and Keycloak. */
  readonly host: string;
  readonly keycloakHost: string;
  /** The cert-manager ClusterIssuer of the Ingress certificates. */
  readonly tlsClusterIssuer: string;
  /**
   * The PEM certificate of that issuer's certificate authority, when it is not one the
   * machine running Pulumi already trusts (a private CA issuer; an ACME issuer such as Let's
   * Encrypt needs none): the Keycloak provider reaches Keycloak through its Ingress and
   * verifies the certificate against it.
   */
  readonly tlsCaCertificate: string | undefined;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /** MongoDB Atlas instead of MongoDB in the cluster, when both are set. */
  readonly atlasProjectId: string | undefined;
  readonly atlasClusterName: string | undefined;
  /** Where every deployable sends its traces (OTLP/HTTP, e.g. a collector's :4318); none if unset. */
  readonly otlpEndpoint: string | undefined;
  /**
   * The most MongoDB connections one service pod opens (the driver's default is 100 per
   * process, kept once opened: at maxReplicas pods of five services, thousands on one primary).
   */
  readonly mongoMaxPoolSize: number;
  /**
   * The usage service's rules the stack sets, as its variables (USAGE_TEST_ACCOUNT_EMAIL,
   * USAGE_STARTS_PER_MINUTE, USAGE_ABANDONED_RUN_MS); the ones it does not set are absent and
   * the service applies its defaults.
   */
  readonly usageEnv: Readonly<Partial<Record<UsageSettingName, string>>>;
  /**
   * The gateway's RATE_LIMITS (JSON over its defaults, docs/limits.md), checked with the
   * gateway's own schema; unset, the defaults.
   */
  readonly rateLimits: string | undefined;
  /** The OAuth apps Keycloak signs users in through; a provider without one has no broker. */
  readonly oauthApps: Readonly<Partial<Record<OAuthProvider, OAuthApp>>>;
  /** The realm's SMTP server, which sends the address-verification mail. */
  readonly smtp: SmtpServer;
  readonly secrets: {
    readonly mongoRootPassword: pulumi.Output<string>;
    readonly mongoServicePasswords: pulumi.Output<Record<ServiceName, string>>;
    readonly keycloakAdminPassword: pulumi.Output<string>;
    readonly keycloakDbPassword: pulumi.Output<string>;
    readonly identityClientSecret: pulumi.Output<string>;
    readonly openaiApiKey: pulumi.Output<string> | undefined;
  };
}

/** The identity providers Keycloak can broker sign-in to. */
export const oauthProviders = ['google', 'github'] as const;
export type OAuthProvider = (typeof oauthProviders)[number];

/** An OAuth app registered at Google or GitHub for the realm. */
export interface OAuthApp {
  readonly clientId: string;
  readonly clientSecret: pulumi.Output<string>;
}

/**
 * The mail server Keycloak sends the realm's mail through (the link that verifies a new
 * account's address): debate:smtpHost and debate:smtpFrom are required, debate:smtpUser with
 * the secret debate:smtpPassword log in (both, or neither).
 */
export interface SmtpServer {
  readonly host: string;
  readonly port: number;
  /** The sender's address, and the name shown with it. */
  readonly from: string;
  readonly fromDisplayName: string;
  /** STARTTLS after connecting (port 587), or TLS from the start (port 465). */
  readonly starttls: boolean;
  readonly ssl: boolean;
  /** The login; none: Keycloak sends without one. */
  readonly auth:
    { readonly username: string; readonly password: pulumi.Output<string> } | undefined;
}

export function readSettings(config = new pulumi.Config('debate')): StackSettings {
  const passwords =
    config.requireSecretObject<Record<ServiceName, string>>('mongoServicePasswords');
  return {
    namespace: config.get('namespace') ?? 'debate',
    imageRegistry: config.require('imageRegistry'),
    imageTag: config.require('imageTag'),
    host: config.require('host'),
    keycloakHost: config.require('keycloakHost'),
    tlsClusterIssuer: config.get('tlsClusterIssuer') ?? 'letsencrypt',
    tlsCaCertificate: config.get('tlsCaCertificate'),
    minReplicas: config.getNumber('minReplicas') ?? 2,
    maxReplicas: config.getNumber('maxReplicas') ?? 10,
    atlasProjectId: config.get('atlasProjectId'),
    atlasClusterName: config.get('atlasClusterName'),
    otlpEndpoint: config.get('otlpEndpoint'),
    mongoMaxPoolSize: config.getNumber('mongoMaxPoolSize', { min: 1 }) ?? 20,
    usageEnv: readUsageEnv(config),
    rateLimits: readRateLimits(config),
    oauthApps: Object.fromEntries(
      oauthProviders.flatMap((provider) => {
        const app = readOAuthApp(config, provider);
        return app ? [[provider, app]] : [];
      }),
    ),
    smtp: readSmtpServer(config),
    secrets: {
      mongoRootPassword: config.requireSecret('mongoRootPassword'),
      mongoServicePasswords: passwords.apply((all) => {
        const missing = serviceNames.filter((name) => !all[name]);
        if (missing.length > 0) {
          throw new Error(`mongoServicePasswords has no password for ${missing.join(', ')}`);
        }
        return all;
      }),
      keycloakAdminPassword: config.requireSecret('keycloakAdminPassword'),
      keycloakDbPassword: config.requireSecret('keycloakDbPassword'),
      identityClientSecret: config.requireSecret('identityClientSecret'),
      openaiApiKey: config.getSecret('openaiApiKey'),
    },
  };
}

/**
 * The provider's OAuth app (debate:<provider>ClientId and the secret
 * debate:<provider>ClientSecret), or none when no client id is set: a broker with an empty
 * client id would only fail at sign-in. One of the two without the other is refused, naming
 * the missing one.
 */
function readOAuthApp(config: pulumi.Config, provider: OAuthProvider): OAuthApp | undefined {
  const idKey = `${provider}ClientId`;
  const secretKey = `${provider}ClientSecret`;
  const clientId = config.get(idKey)?.trim();
  const clientSecret = config.getSecret(secretKey);
  if (!clientId) {
    if (clientSecret) {
      throw new Error(
        `debate:${secretKey} is set but debate:${idKey} is not: set both, or neither`,
      );
    }
    return undefined;
  }
  if (!clientSecret) {
    throw new Error(
      `debate:${idKey} is set but debate:${secretKey} is not: set it with \`pulumi config set --secret ${secretKey} …\``,
    );
  }
  return { clientId, clientSecret };
}

/** The stack setting that sets each of the usage service's variables. */
const usageSettingKeys: Readonly<Record<UsageSettingName, string>> = {
  USAGE_TEST_ACCOUNT_EMAIL: 'usageTestAccountEmail',
  USAGE_STARTS_PER_MINUTE: 'usageStartsPerMinute',
  USAGE_ABANDONED_RUN_MS: 'usageAbandonedRunMs',
};

/**
 * The usage rules the stack sets, checked against the usage service's own schema: a value the
 * service would refuse at start fails here, naming the stack setting, instead of every usage
 * pod crash-looping.
 */
function readUsageEnv(config: pulumi.Config): StackSettings['usageEnv'] {
  const names = Object.keys(usageSettingKeys) as UsageSettingName[];
  const values = Object.fromEntries(
    names.flatMap((name) => {
      const value = config.get(usageSettingKeys[name]);
      return value === undefined ? [] : [[name, value]];
    }),
  ) as Partial<Record<UsageSettingName, string>>;
  const checked = usageSettingsSchema.safeParse(values);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => {
      const name = issue.path[0] as UsageSettingName;
      return `debate:${usageSettingKeys[name]} (${JSON.stringify(values[name])}): ${issue.message}`;
    });
    throw new Error(`bad usage rules in the stack's settings: ${problems.join('; ')}`);
  }
  return values;
}

/** `debate:rateLimits`, refused at preview when the gateway would refuse it at start. */
function readRateLimits(config: pulumi.Config): string | undefined {
  const value = config.get('rateLimits');
  if (value === undefined) return undefined;
  const checked = rateLimitsSchema.safeParse(value);
  if (!checked.success) {
    const problems = checked.error.issues.map(
      (issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`,
    );
    throw new Error(`debate:rateLimits (${JSON.stringify(value)}): ${problems.join('; ')}`);
  }
  return value;
}

const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** The SMTP stack settings, checked as Keycloak and the mail server will read them. */
const smtpSettingsSchema = z.object({
  smtpHost: z
    .string()
    .trim()
    // A name or IPv4 address without a colon, or an IPv6 address (two colons at least).
    .regex(
      /^(?:[^\s/:]+|[0-9A-Fa-f.]*:[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*)$/,
      'must be a host name or address, without a scheme or port',
    ),
  smtpPort: z.coerce.number().int().min(1).max(65_535).default(587),
  smtpFrom: z.email(),
  smtpFromDisplayName: z.string().trim().min(1).default('AI Debate'),
  smtpStarttls: flag.optional(),
  smtpSsl: flag.default(false),
});
type SmtpSettingKey = keyof typeof smtpSettingsSchema.shape;

/**
 * The realm's SMTP server (debate:smtp*). debate:smtpHost and debate:smtpFrom are required (a
 * preview without them fails naming them); the port is 587 with STARTTLS unless set, and
 * STARTTLS is off by default with debate:smtpSsl (TLS from the start). A bad value fails the
 * preview naming the setting; so do a user without its password and a password without its user.
 */
function readSmtpServer(config: pulumi.Config): SmtpServer {
  const keys = Object.keys(smtpSettingsSchema.shape) as SmtpSettingKey[];
  const values = Object.fromEntries(
    keys.flatMap((key) => {
      // The two required ones through Pulumi's own message ("Missing required configuration
      // variable 'debate:smtpHost'"), with how to set it.
      const value =
        key === 'smtpHost' || key === 'smtpFrom' ? config.require(key) : config.get(key);
      return value === undefined ? [] : [[key, value]];
    }),
  ) as Partial<Record<SmtpSettingKey, string>>;
  const checked = smtpSettingsSchema.safeParse(values);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => {
      const key = issue.path[0] as SmtpSettingKey;
      return `debate:${key} (${JSON.stringify(values[key])}): ${issue.message}`;
    });
    throw new Error(`bad SMTP settings in the stack: ${problems.join('; ')}`);
  }
  const settings = checked.data;
  const starttls = settings.smtpStarttls ?? !settings.smtpSsl;
  if (starttls && settings.smtpSsl) {
    throw new Error(
      'debate:smtpSsl and debate:smtpStarttls are both true: TLS from the start (port 465) or ' +
        'STARTTLS (port 587), not both',
    );
  }
  const username = config.get('smtpUser')?.trim();
  const password = config.getSecret('smtpPassword');
  if (username && !password) {
    throw new Error(
      'debate:smtpUser is set but debate:smtpPassword is not: set it with ' +
        '`pulumi config set --secret smtpPassword …`, or unset smtpUser',
    );
  }
  if (!username && password) {
    throw new Error('debate:smtpPassword is set but debate:smtpUser is not: set both, or neither');
  }
  return {
    host: settings.smtpHost,
    port: settings.smtpPort,
    from: settings.smtpFrom,
    fromDisplayName: settings.smtpFromDisplayName,
    starttls,
    ssl: settings.smtpSsl,
    auth: username && password ? { username, password } : undefined,
  };
}
