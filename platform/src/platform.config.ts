import { gatewayEnvSchema } from '@debate/gateway';
import { communityRulesEnvSchema } from '@debate/community-service';
import { speakerEnvSchema } from '@debate/generation-service';
import {
  brokerEnvSchema,
  checkMailEnv,
  issuerNodeEnvSchema,
  mailEnvSchema,
} from '@debate/embedded-keycloak';
import { emailVerificationEnvSchema } from '@debate/identity-service';
import { usageRulesEnvSchema } from '@debate/usage-service';
import { mongoUrl, optionalEnv } from '@debate/nest';
import { existsSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The workspace's `.data`: where single-process mode keeps its documents by default. */
const defaultDataDir = fileURLToPath(new URL('../../.data', import.meta.url));

/** Single-process mode reads the gateway's variables, and where its documents live. */
export const platformEnvSchema = gatewayEnvSchema
  // One process: no NATS, no JetStream, and its own realm (the embedded issuer at /auth).
  .omit({
    NATS_URL: true,
    NATS_USER: true,
    NATS_PASSWORD: true,
    NATS_TLS_CA_FILE: true,
    JETSTREAM_REPLICAS: true,
    AUTH_ISSUER_URL: true,
    AUTH_JWKS_URL: true,
  })
  .extend(brokerEnvSchema.shape)
  .extend(speakerEnvSchema.shape)
  .extend(usageRulesEnvSchema.shape)
  .extend(communityRulesEnvSchema.shape)
  .extend(emailVerificationEnvSchema.shape)
  .extend(mailEnvSchema.shape)
  // It starts the embedded issuer, which refuses NODE_ENV=production.
  .extend(issuerNodeEnvSchema.shape)
  .extend({
    // One machine's process, often a laptop's: nothing on the network until asked.
    HOST: optionalEnv(z.string().min(1).default('127.0.0.1')).describe(
      "The address npm start listens on: loopback only by default (the web app, GraphQL and the embedded issuer's /auth, admin API included); 0.0.0.0 opens it to the network.",
    ),
    OPS_HOST: optionalEnv(z.string().min(1).optional()).describe(
      "The address npm start's operations port (probes, /metrics) listens on; unset, HOST's.",
    ),
    MONGO_URL: optionalEnv(mongoUrl.optional()).describe(
      'A MongoDB to keep the documents in instead of the embedded server; unset, the embedded server.',
    ),
    DATA_DIR: optionalEnv(z.string().min(1).default(defaultDataDir)).describe(
      "Where the embedded server keeps its documents (DATA_DIR/mongo) and the embedded issuer its signing key and the identity-service client's secret.",
    ),
    MONGO_PORT: optionalEnv(z.coerce.number().int().min(0).max(65_535).default(27017)).describe(
      "The embedded server's port, on loopback only.",
    ),
    SEED_EXAMPLES: optionalEnv(z.stringbool().default(true)).describe(
      'On an empty community, write five example debates with the offline speaker and share them (marked as examples), so a first look is not an empty page; false: never.',
    ),
    // The embedded model server (libs/embedded-model, docs/local-model.md).
    LOCAL_MODEL: optionalEnv(z.enum(['on', 'off']).default('on')).describe(
      'Whether npm start runs the local model (llama.cpp, in this process, on 127.0.0.1): fetched in the background into LOCAL_MODEL_CACHE on the first start unless LOCAL_MODEL_FILE names one, then offered first for both speakers and the judge. off: none, as before.',
    ),
    LOCAL_MODEL_FILE: optionalEnv(
      z.string().min(1).refine(existsSync, 'must name a file that exists').optional(),
    ).describe(
      'A GGUF model on this machine for the local model: nothing is downloaded (an air-gapped machine). Unset, the default model is fetched into LOCAL_MODEL_CACHE.',
    ),
    LOCAL_MODEL_URL: optionalEnv(
      z.string().refine(isHttpUrl, 'must be an http:// or https:// URL').optional(),
    ).describe(
      "Where to fetch the local model from instead of huggingface.co: an operator's mirror or artifact store of the same file, or another GGUF model. Requires LOCAL_MODEL_SHA256 (the file's checksum); the size is then what the server says. Not with LOCAL_MODEL_FILE.",
    ),
    LOCAL_MODEL_SHA256: optionalEnv(
      z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/, 'must be a SHA-256 digest (64 hex digits)')
        .optional(),
    ).describe(
      "The SHA-256 of the file at LOCAL_MODEL_URL (required with it, and only with it): the download is refused unless it hashes to this. The default model's digest makes it that model, fetched from elsewhere.",
    ),
    LOCAL_MODEL_CACHE: optionalEnv(z.string().min(1).optional()).describe(
      'Where the local model is downloaded to and kept; unset, debate/models in XDG_CACHE_HOME (~/.cache when that is unset).',
    ),
    LOCAL_MODEL_THREADS: optionalEnv(z.coerce.number().int().min(1).max(1024).optional()).describe(
      "llama.cpp's threads; unset, half the machine's cores (at least one): its threads spin while it writes, and would starve the services of the rest.",
    ),
    LOCAL_MODEL_GPU: optionalEnv(z.enum(['on', 'off']).default('off')).describe(
      'on: the local model runs on a GPU build of llama.cpp where one is installed (npm ci installs only the CPU build; docs/local-model.md says how to add one); off: the CPU.',
    ),
  })
  .superRefine((env, context) => checkMailEnv(env, context))
  .superRefine((env, context) => checkLocalModelEnv(env, context));
export type PlatformEnv = z.output<typeof platformEnvSchema>;

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The local model's source is one of three: the default download, a download from
 * LOCAL_MODEL_URL with its LOCAL_MODEL_SHA256 (the two together or neither: a file fetched
 * unchecked could be anything), or LOCAL_MODEL_FILE (not with a URL: which one was meant?).
 */
function checkLocalModelEnv(
  env: {
    readonly LOCAL_MODEL_URL?: string | undefined;
    readonly LOCAL_MODEL_SHA256?: string | undefined;
    readonly LOCAL_MODEL_FILE?: string | undefined;
  },
  context: z.RefinementCtx,
): void {
  if (env.LOCAL_MODEL_URL !== undefined && env.LOCAL_MODEL_SHA256 === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['LOCAL_MODEL_SHA256'],
      message:
        "is required with LOCAL_MODEL_URL (the file's SHA-256: a download is only used when it hashes to it)",
    });
  }
  if (env.LOCAL_MODEL_SHA256 !== undefined && env.LOCAL_MODEL_URL === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['LOCAL_MODEL_URL'],
      message: 'is required with LOCAL_MODEL_SHA256 (where to fetch the file it is the digest of)',
    });
  }
  if (env.LOCAL_MODEL_URL !== undefined && env.LOCAL_MODEL_FILE !== undefined) {
    context.addIssue({
      code: 'custom',
      path: ['LOCAL_MODEL_FILE'],
      message:
        'and LOCAL_MODEL_URL are both set: give one (a file on this machine, or where to fetch one)',
    });
  }
}

/** Where the local model comes from, and how many threads it may take. */
export interface LocalModelSettings {
  /** A GGUF on disk (LOCAL_MODEL_FILE); unset, the default model is fetched into `cacheDir`. */
  readonly file?: string;
  /** Where to fetch it from instead, and its digest (LOCAL_MODEL_URL, LOCAL_MODEL_SHA256). */
  readonly mirror?: { readonly url: string; readonly sha256: string };
  readonly cacheDir: string;
  readonly threads: number;
  readonly gpu: boolean;
}

/**
 * npm start's local model: LOCAL_MODEL_FILE, or the download (from LOCAL_MODEL_URL, checked against
 * LOCAL_MODEL_SHA256, when given) into LOCAL_MODEL_CACHE (unset,
 * `<XDG_CACHE_HOME or ~/.cache>/debate/models`), with LOCAL_MODEL_THREADS threads (unset, half
 * the machine's cores, at least one), on the CPU unless LOCAL_MODEL_GPU=on. `system` stands in for this machine in the tests.
 */
export function localModelSettings(
  env: Pick<
    PlatformEnv,
    'LOCAL_MODEL_FILE' | 'LOCAL_MODEL_CACHE' | 'LOCAL_MODEL_THREADS' | 'LOCAL_MODEL_GPU'
  > &
    Partial<Pick<PlatformEnv, 'LOCAL_MODEL_URL' | 'LOCAL_MODEL_SHA256'>>,
  system: { readonly xdgCacheHome?: string; readonly home?: string; readonly cores?: number } = {},
): LocalModelSettings {
  const cacheHome =
    (system.xdgCacheHome ?? process.env.XDG_CACHE_HOME) || join(system.home ?? homedir(), '.cache');
  return {
    ...(env.LOCAL_MODEL_FILE ? { file: env.LOCAL_MODEL_FILE } : {}),
    ...(env.LOCAL_MODEL_URL && env.LOCAL_MODEL_SHA256 && !env.LOCAL_MODEL_FILE
      ? { mirror: { url: env.LOCAL_MODEL_URL, sha256: env.LOCAL_MODEL_SHA256.toLowerCase() } }
      : {}),
    cacheDir: env.LOCAL_MODEL_CACHE ?? join(cacheHome, 'debate', 'models'),
    threads:
      env.LOCAL_MODEL_THREADS ??
      Math.max(1, Math.floor((system.cores ?? availableParallelism()) / 2)),
    gpu: env.LOCAL_MODEL_GPU === 'on',
  };
}

/** Where npm start listens: the public port on HOST, the operations port on OPS_HOST or HOST. */
export function listenAddresses(env: Pick<PlatformEnv, 'HOST' | 'OPS_HOST'>): {
  readonly web: string;
  readonly operations: string;
} {
  return { web: env.HOST, operations: env.OPS_HOST ?? env.HOST };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

/** The start's line on where it listens, and how to open it to the network when it is not. */
export function listeningLine(addresses: ReturnType<typeof listenAddresses>): string {
  const closed = [addresses.web, addresses.operations].every((host) => LOOPBACK.test(host));
  return closed
    ? `Listening on this machine only (${addresses.web}): HOST=0.0.0.0 opens it to the network`
    : `Listening on ${addresses.web} (operations port on ${addresses.operations}): open to the network`;
}
