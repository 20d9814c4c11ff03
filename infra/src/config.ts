import {
  type CommunitySettingName,
  communitySettingsSchema,
  defaultModelIds,
  MAX_JUDGE_PANEL,
  ModelCatalog,
  ModelId,
  ModelEntry,
  OFFLINE_JUDGE_ID,
  RESERVED_KEY_VARIABLE,
  type NatsDeployable,
  natsDeployables,
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
  /** The namespace of the ingress controller: the only pods that may reach the gateway. */
  readonly ingressNamespace: string;
  /** The namespace of the Prometheus that scrapes the pods' metrics. */
  readonly prometheusNamespace: string;
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
   * USAGE_TEST_ACCOUNT_ID, USAGE_STARTS_PER_MINUTE, USAGE_ABANDONED_RUN_MS); the ones it does
   * not set are absent and the service applies its defaults.
   */
  readonly usageEnv: Readonly<Partial<Record<UsageSettingName, string>>>;
  /**
   * The community service's rule the stack sets, as its variable (LEADERBOARD_DAILY_LIMIT);
   * unset, absent, and the service applies its default.
   */
  readonly communityEnv: Readonly<Partial<Record<CommunitySettingName, string>>>;
  /**
   * The gateway's RATE_LIMITS (JSON over its defaults, docs/limits.md), checked with the
   * gateway's own schema; unset, the defaults.
   */
  readonly rateLimits: string | undefined;
  /**
   * The generation service's MODEL_CATALOG: debate:modelCatalog as JSON, checked with the
   * contracts' ModelCatalog (the service's own schema), each entry's key variable given by the
   * stack; unset, the service's defaults (the spec's two models with debate:openaiApiKey).
   */
  readonly modelCatalog: string | undefined;
  /**
   * The generation service's JUDGE_MODELS: debate:judgeModels (catalogue ids, in order of
   * preference), each checked against debate:modelCatalog (or the offline judge's id); unset,
   * the offline judge.
   */
  readonly judgeModels: string | undefined;
  /**
   * The generation service's JUDGE_PANEL_SIZE: debate:judgePanelSize, how many judges read each
   * debate (1 to MAX_JUDGE_PANEL); unset, the service's default (one).
   */
  readonly judgePanelSize: string | undefined;
  /** The OAuth apps Keycloak signs users in through; a provider without one has no broker. */
  readonly oauthApps: Readonly<Partial<Record<OAuthProvider, OAuthApp>>>;
  /** The realm's SMTP server, which sends the address-verification mail. */
  readonly smtp: SmtpServer;
  /**
   * The identity service's EMAIL_VERIFICATION: debate:emailVerification, `required` unless set
   * (new e-mail accounts verify their address through the realm's mail); `off` only for a load
   * test's own stack, whose made-up addresses must not be mailed.
   */
  readonly emailVerification: EmailVerification;
  readonly secrets: {
    readonly mongoRootPassword: pulumi.Output<string>;
    readonly mongoServicePasswords: pulumi.Output<Record<ServiceName, string>>;
    /** debate:natsPasswords: each deployable's password, its NATS user's. */
    readonly natsPasswords: pulumi.Output<Record<NatsDeployable, string>>;
    readonly keycloakAdminPassword: pulumi.Output<string>;
    readonly keycloakDbPassword: pulumi.Output<string>;
    readonly identityClientSecret: pulumi.Output<string>;
    readonly openaiApiKey: pulumi.Output<string> | undefined;
    /**
     * debate:modelApiKeys: the model servers' keys by the variable the catalogue's `apiKeyEnv`
     * names; they go into the generation service's Secret as those variables. Empty if unset.
     */
    readonly modelApiKeys: Readonly<Record<string, pulumi.Output<string>>>;
  };
}

/** The identity service's EMAIL_VERIFICATION values. */
const emailVerifications = ['required', 'off'] as const;
type EmailVerification = (typeof emailVerifications)[number];

/** The identity providers Keycloak can broker sign-in to. */
const oauthProviders = ['google', 'github'] as const;
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
  const openaiApiKey = config.getSecret('openaiApiKey');
  const modelApiKeys = readModelApiKeys(config);
  const modelCatalog = readModelCatalog(config);
  if (modelCatalog) checkModelKeys(modelCatalog, modelApiKeys, openaiApiKey !== undefined);
  const judgeModels = readJudgeModels(config, modelCatalog);
  return {
    namespace: config.get('namespace') ?? 'debate',
    imageRegistry: config.require('imageRegistry'),
    imageTag: config.require('imageTag'),
    host: config.require('host'),
    keycloakHost: config.require('keycloakHost'),
    ingressNamespace: config.get('ingressNamespace') ?? 'ingress-nginx',
    prometheusNamespace: config.get('prometheusNamespace') ?? 'monitoring',
    tlsClusterIssuer: config.get('tlsClusterIssuer') ?? 'letsencrypt',
    tlsCaCertificate: config.get('tlsCaCertificate'),
    minReplicas: config.getNumber('minReplicas') ?? 2,
    maxReplicas: config.getNumber('maxReplicas') ?? 10,
    atlasProjectId: config.get('atlasProjectId'),
    atlasClusterName: config.get('atlasClusterName'),
    otlpEndpoint: config.get('otlpEndpoint'),
    mongoMaxPoolSize: config.getNumber('mongoMaxPoolSize', { min: 1 }) ?? 20,
    usageEnv: readServiceEnv(config, 'usage', usageSettingKeys, usageSettingsSchema),
    communityEnv: readServiceEnv(
      config,
      'leaderboard',
      communitySettingKeys,
      communitySettingsSchema,
    ),
    rateLimits: readRateLimits(config),
    modelCatalog: modelCatalog && JSON.stringify(modelCatalog.value),
    judgeModels,
    judgePanelSize: readJudgePanelSize(config),
    oauthApps: Object.fromEntries(
      oauthProviders.flatMap((provider) => {
        const app = readOAuthApp(config, provider);
        return app ? [[provider, app]] : [];
      }),
    ),
    smtp: readSmtpServer(config),
    // Refused at preview unless one of the two the identity service knows.
    emailVerification:
      config.get('emailVerification', { allowedValues: [...emailVerifications] }) ?? 'required',
    secrets: {
      mongoRootPassword: config.requireSecret('mongoRootPassword'),
      mongoServicePasswords: passwords.apply((all) => {
        const missing = serviceNames.filter((name) => !all[name]);
        if (missing.length > 0) {
          throw new Error(`mongoServicePasswords has no password for ${missing.join(', ')}`);
        }
        return all;
      }),
      natsPasswords: config
        .requireSecretObject<Record<NatsDeployable, string>>('natsPasswords')
        .apply((all) => {
          const missing = natsDeployables.filter((name) => !all[name]);
          if (missing.length > 0) {
            throw new Error(`natsPasswords has no password for ${missing.join(', ')}`);
          }
          return all;
        }),
      keycloakAdminPassword: config.requireSecret('keycloakAdminPassword'),
      keycloakDbPassword: config.requireSecret('keycloakDbPassword'),
      identityClientSecret: config.requireSecret('identityClientSecret'),
      openaiApiKey,
      modelApiKeys,
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
  USAGE_TEST_ACCOUNT_ID: 'usageTestAccountId',
  USAGE_STARTS_PER_MINUTE: 'usageStartsPerMinute',
  USAGE_ABANDONED_RUN_MS: 'usageAbandonedRunMs',
};

/** The stack setting that sets the community service's variable. */
const communitySettingKeys: Readonly<Record<CommunitySettingName, string>> = {
  LEADERBOARD_DAILY_LIMIT: 'leaderboardDailyLimit',
};

/**
 * A service's rules the stack sets (`keys`: each variable's stack setting), checked against the
 * service's own schema: a value the service would refuse at start fails here, naming the stack
 * setting, instead of every pod of the service crash-looping.
 */
function readServiceEnv<Name extends string>(
  config: pulumi.Config,
  rules: string,
  keys: Readonly<Record<Name, string>>,
  schema: z.ZodType,
): Partial<Record<Name, string>> {
  const names = Object.keys(keys) as Name[];
  const values = Object.fromEntries(
    names.flatMap((name) => {
      const value = config.get(keys[name]);
      return value === undefined ? [] : [[name, value]];
    }),
  ) as Partial<Record<Name, string>>;
  const checked = schema.safeParse(values);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => {
      const name = issue.path[0] as Name;
      return `debate:${keys[name]} (${JSON.stringify(values[name])}): ${issue.message}`;
    });
    throw new Error(`bad ${rules} rules in the stack's settings: ${problems.join('; ')}`);
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

/** debate:modelCatalog as the stack sets it (`value`, for MODEL_CATALOG), and as checked. */
interface StackModelCatalog {
  readonly value: unknown;
  readonly entries: readonly ModelEntry[];
}

/**
 * `debate:modelCatalog` (a structured object in Pulumi.<stack>.yaml, or JSON), refused at
 * preview when the generation service would refuse it at start: each problem names the entry
 * (its index and id) and the field.
 */
function readModelCatalog(config: pulumi.Config): StackModelCatalog | undefined {
  const value = config.getObject<unknown>('modelCatalog');
  if (value === undefined) return undefined;
  const checked = ModelCatalog.safeParse(value);
  if (checked.success) return { value, entries: checked.data };
  const listed = Array.isArray(value) ? (value as unknown[]) : [];
  const idOf = (index: number) => {
    const id = (listed[index] as { id?: unknown } | null | undefined)?.id;
    return typeof id === 'string' ? id : undefined;
  };
  const ids = listed.map((_, index) => idOf(index)).filter((id) => id !== undefined);
  const twice = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
  const problems = checked.error.issues.map((issue) => {
    const [index, ...field] = issue.path;
    if (typeof index !== 'number') {
      const which = twice.length > 0 ? ` (${twice.map((id) => `"${id}"`).join(', ')})` : '';
      return `debate:modelCatalog: ${issue.message}${which}`;
    }
    const hint =
      issue.code === 'unrecognized_keys' && issue.keys.some((key) => /key/i.test(key))
        ? ' (keys are not written in the catalogue: apiKeyEnv names a variable of the secret debate:modelApiKeys)'
        : '';
    const id = idOf(index);
    const where = `debate:modelCatalog[${index}]${id === undefined ? '' : ` ("${id}")`}`;
    return `${where}${field.length > 0 ? `.${field.join('.')}` : ''}: ${issue.message}${hint}`;
  });
  throw new Error(`bad model catalogue in the stack's settings: ${problems.join('; ')}`);
}

/**
 * `debate:modelApiKeys`, a secret object `{ VARIABLE: key }`. Its names are read here, at
 * preview, to check them against the catalogue; each key is kept a secret Output from here on,
 * and no message below ever shows one.
 */
function readModelApiKeys(config: pulumi.Config): Record<string, pulumi.Output<string>> {
  const text = config.get('modelApiKeys');
  if (text === undefined) return {};
  let keys: unknown;
  try {
    keys = JSON.parse(text);
  } catch {
    keys = undefined;
  }
  if (!keys || typeof keys !== 'object' || Array.isArray(keys)) {
    throw new Error(
      'debate:modelApiKeys is not an object of variable → key: set each key with ' +
        "`pulumi config set --secret --path 'modelApiKeys.VLLM_KEY' …`",
    );
  }
  const problems = Object.entries(keys).flatMap(([name, key]) => {
    const at = `debate:modelApiKeys.${name}`;
    if (name === 'OPENAI_API_KEY') return [`${at}: OpenAI's key is the secret debate:openaiApiKey`];
    if (RESERVED_KEY_VARIABLE.test(name)) {
      return [`${at}: a variable the generation service, Node or OpenTelemetry reads as a setting`];
    }
    if (!ModelEntry.shape.apiKeyEnv.safeParse(name).success) {
      return [`${at}: not the name of an environment variable (A-Z, 0-9 and _)`];
    }
    if (typeof key !== 'string' || key.trim() === '') return [`${at}: not a key (empty)`];
    return [];
  });
  if (problems.length > 0) throw new Error(`bad debate:modelApiKeys: ${problems.join('; ')}`);
  return Object.fromEntries(
    Object.entries(keys as Record<string, string>).map(([name, key]) => [name, pulumi.secret(key)]),
  );
}

/**
 * Each catalogue entry's key variable set by the stack: a name of debate:modelApiKeys, or
 * OPENAI_API_KEY with debate:openaiApiKey set (the service refuses to start on an unset one).
 */
function checkModelKeys(
  catalog: StackModelCatalog,
  modelApiKeys: Readonly<Record<string, unknown>>,
  openaiApiKeySet: boolean,
): void {
  const problems = catalog.entries.flatMap((entry, index) => {
    const variable = entry.apiKeyEnv;
    if (variable === undefined || Object.hasOwn(modelApiKeys, variable)) return [];
    if (variable === 'OPENAI_API_KEY' && openaiApiKeySet) return [];
    const set =
      variable === 'OPENAI_API_KEY'
        ? '`pulumi config set --secret openaiApiKey …`'
        : `\`pulumi config set --secret --path 'modelApiKeys.${variable}' …\``;
    return [
      `debate:modelCatalog[${index}] ("${entry.id}") reads its key from ${variable}, which ` +
        `neither debate:modelApiKeys nor debate:openaiApiKey sets: ${set}`,
    ];
  });
  if (problems.length > 0) {
    throw new Error(`model keys missing from the stack's settings: ${problems.join('; ')}`);
  }
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

/**
 * `debate:judgePanelSize`, how many judges read each debate: a whole number from 1 to
 * MAX_JUDGE_PANEL, refused at preview otherwise (the service would refuse to start).
 */
function readJudgePanelSize(config: pulumi.Config): string | undefined {
  const size = config.getNumber('judgePanelSize', { min: 1, max: MAX_JUDGE_PANEL });
  if (size !== undefined && !Number.isInteger(size)) {
    throw new Error(`debate:judgePanelSize: ${size} is not a whole number of judges`);
  }
  return size?.toString();
}

/**
 * `debate:judgeModels`, a list of catalogue ids (the models that may judge, in order of
 * preference), refused at preview when one is not in debate:modelCatalog (the service would
 * refuse to start); the offline judge's id is taken too (a panel may seat it). Without
 * debate:modelCatalog the catalogue is the spec's gpt-4 and gpt-3.5-turbo (with
 * debate:openaiApiKey).
 */
function readJudgeModels(
  config: pulumi.Config,
  catalog: StackModelCatalog | undefined,
): string | undefined {
  const ids = config.getObject<unknown>('judgeModels');
  if (ids === undefined) return undefined;
  if (
    !Array.isArray(ids) ||
    ids.some((id) => typeof id !== 'string' || !ModelId.safeParse(id).success)
  ) {
    throw new Error('debate:judgeModels is not a list of model ids of the catalogue');
  }
  const known = [
    ...(catalog ? catalog.entries.map((entry) => entry.id) : defaultModelIds),
    OFFLINE_JUDGE_ID,
  ];
  const unknown = (ids as string[]).filter((id) => !known.includes(id));
  if (unknown.length > 0) {
    throw new Error(
      `debate:judgeModels: ${unknown.join(', ')} not in the model catalogue (${known.join(', ')})`,
    );
  }
  return (ids as string[]).join(',');
}
