import { describeIssues, type NatsDeployable } from '@debate/contracts';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { NatsSettings } from '../transport/nats.transport.js';

/** Raised at start when the environment is wrong; the message names every bad variable at once. */
export class ConfigError extends Error {
  constructor(
    readonly deployable: string,
    readonly problems: readonly string[],
  ) {
    super(`Invalid environment for ${deployable}: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment with `schema` and hands out the typed result, or throws one
 * ConfigError listing every variable that is missing or malformed.
 */
export function loadConfig<S extends z.ZodType>(
  deployable: string,
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.output<S> {
  const result = schema.safeParse(env);
  if (!result.success) throw new ConfigError(deployable, describeIssues(result.error));
  return result.data;
}

/** loadConfig for an entry point: a bad environment ends the process with its one message. */
export function loadConfigOrExit<S extends z.ZodType>(deployable: string, schema: S): z.output<S> {
  try {
    return loadConfig(deployable, schema);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}

/** An optional variable: unset and empty both mean "use the default". */
export function optionalEnv<S extends z.ZodType>(schema: S) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema);
}

export const natsUrlSchema = optionalEnv(
  z
    .string()
    .regex(
      /^(nats|tls):\/\/[^\s,]+(,(nats|tls):\/\/[^\s,]+)*$/,
      'must be a nats:// or tls:// URL, or several separated by commas',
    )
    .default('nats://127.0.0.1:4222'),
).describe(
  "The NATS server the deployable sends its requests and events through; on a cluster, its servers' URLs separated by commas (any one that answers will do: the client learns the others from it, and moves to another when its own is lost).",
);

/**
 * A deployable's NATS identity: its user and password (both or neither), and the CA its
 * connections verify the server with. Every deployable's schema has them (the gateway's and the
 * services'); `npm start`, on the in-process transport, does not.
 */
export const natsIdentityEnvShape = {
  NATS_USER: optionalEnv(
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, `_` or `-`')
      .optional(),
  ).describe(
    "The deployable's NATS user, whose permissions the broker checks (its name: `gateway`, `identity`, …); unset, it connects anonymously.",
  ),
  NATS_PASSWORD: optionalEnv(z.string().min(1).max(1024).optional()).describe(
    "NATS_USER's password (a secret): required with NATS_USER.",
  ),
  NATS_TLS_CA_FILE: optionalEnv(
    z.string().min(1).refine(existsSync, 'must name a file that exists').optional(),
  ).describe(
    "A PEM file of the CA the NATS server's certificate must chain to; set, every NATS connection of the deployable requires TLS.",
  ),
};

type NatsIdentityEnv = {
  readonly [K in keyof typeof natsIdentityEnvShape]?: string | undefined;
};

/** The refinement of natsIdentityEnvShape: NATS_USER and NATS_PASSWORD come together. */
export function checkNatsIdentity(env: NatsIdentityEnv, context: z.RefinementCtx): void {
  if (Boolean(env.NATS_USER) === Boolean(env.NATS_PASSWORD)) return;
  const missing = env.NATS_USER ? 'NATS_PASSWORD' : 'NATS_USER';
  const other = env.NATS_USER ? 'NATS_USER' : 'NATS_PASSWORD';
  context.addIssue({ code: 'custom', path: [missing], message: `is required with ${other}` });
}

/** The NATS settings of `deployable` as its environment gives them (NATS_URL and its identity). */
export function natsSettingsOf(
  env: NatsIdentityEnv & { readonly NATS_URL: string },
  deployable: NatsDeployable,
): NatsSettings {
  return {
    url: env.NATS_URL,
    ...(env.NATS_USER && env.NATS_PASSWORD
      ? { users: { [deployable]: { user: env.NATS_USER, password: env.NATS_PASSWORD } } }
      : {}),
    ...(env.NATS_TLS_CA_FILE ? { tlsCaFile: env.NATS_TLS_CA_FILE } : {}),
  };
}

/** A MongoDB connection string. */
export const mongoUrl = z
  .string()
  .regex(/^mongodb(\+srv)?:\/\/[^\s]+$/, 'must be a mongodb:// or mongodb+srv:// URL');

export const mongoUrlSchema = optionalEnv(mongoUrl.default('mongodb://127.0.0.1:27017')).describe(
  "The MongoDB server of the service's own database, without credentials when MONGO_USERNAME is set.",
);

export const logLevelSchema = optionalEnv(
  z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
).describe(
  'The lowest level of log line written; at `debug` the gateway logs each GraphQL field and a service each request, with its outcome and time.',
);

export const timeoutMsSchema = (fallback: number) =>
  optionalEnv(z.coerce.number().int().min(100).max(60_000).default(fallback));

/** The gateway's and every service's: one definition, so that the two cannot drift apart. */
export const natsRequestTimeoutMsSchema = timeoutMsSchema(5_000).describe(
  'How long a request over NATS waits for its answer before it fails.',
);

export const opsPortSchema = optionalEnv(
  z.coerce.number().int().min(0).max(65_535).default(9464),
).describe('The operations port (health probes, /metrics), never the port browsers use.');
export const opsHostSchema = optionalEnv(z.string().min(1).default('0.0.0.0')).describe(
  'The address the operations port listens on.',
);

/** Whether a MongoDB URL carries a user (`mongodb://user[:password]@host`). */
const hasCredentials = (url: string) => /^mongodb(\+srv)?:\/\/[^/?#]*@/.test(url);

/** The variables every service reads. */
export const serviceEnvSchema = z
  .object({
    NATS_URL: natsUrlSchema,
    ...natsIdentityEnvShape,
    MONGO_URL: mongoUrlSchema,
    // Apart from MONGO_URL so that no password has to be URL-encoded by hand: the service puts
    // them in the URL percent-encoded (serviceMongoUrl).
    MONGO_USERNAME: optionalEnv(z.string().min(1).max(256).optional()).describe(
      "The service's MongoDB user, put into MONGO_URL for it.",
    ),
    MONGO_PASSWORD: optionalEnv(z.string().min(1).max(1024).optional()).describe(
      "The MongoDB user's password, any characters: the service percent-encodes it into MONGO_URL.",
    ),
    LOG_LEVEL: logLevelSchema,
    NATS_REQUEST_TIMEOUT_MS: natsRequestTimeoutMsSchema,
    DRAIN_TIMEOUT_MS: optionalEnv(
      z.coerce.number().int().min(0).max(600_000).default(10_000),
    ).describe(
      'On SIGTERM, how long the service waits for the work it has taken (requests, and for the generation service its running debates) before it stops anyway.',
    ),
    OPS_PORT: opsPortSchema,
    OPS_HOST: opsHostSchema,
    // Unset, an existing stream keeps its count: a process not told the cluster's size never
    // scales a stream down.
    JETSTREAM_REPLICAS: optionalEnv(z.coerce.number().int().min(1).max(5).optional()).describe(
      'How many NATS servers hold a copy of each JetStream stream the service creates or brings up to date (1 on a single server, 3 on a three-server cluster, so that an event survives the loss of a server); unset, a new stream gets one and an existing one keeps its count.',
    ),
  })
  .superRefine((env, context) => {
    checkNatsIdentity(env, context);
    if (env.MONGO_PASSWORD && !env.MONGO_USERNAME) {
      context.addIssue({
        code: 'custom',
        path: ['MONGO_USERNAME'],
        message: 'is required with MONGO_PASSWORD',
      });
    }
    if (env.MONGO_USERNAME && hasCredentials(env.MONGO_URL)) {
      context.addIssue({
        code: 'custom',
        path: ['MONGO_URL'],
        message: 'must not name a user when MONGO_USERNAME is set',
      });
    }
  });
export type ServiceEnv = z.output<typeof serviceEnvSchema>;

/**
 * The service's MongoDB URL: MONGO_URL, with MONGO_USERNAME and MONGO_PASSWORD in it,
 * percent-encoded, when they are set (a password with `@`, `/`, `:` or `%` stays one password).
 */
export function serviceMongoUrl(
  env: Pick<ServiceEnv, 'MONGO_URL' | 'MONGO_USERNAME' | 'MONGO_PASSWORD'>,
): string {
  if (!env.MONGO_USERNAME) return env.MONGO_URL;
  const credentials = [env.MONGO_USERNAME, env.MONGO_PASSWORD]
    .filter((part): part is string => part !== undefined)
    .map(encodeURIComponent)
    .join(':');
  return env.MONGO_URL.replace(/^(mongodb(?:\+srv)?:\/\/)/, `$1${credentials}@`);
}
