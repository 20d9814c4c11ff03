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
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The workspace's `.data`: where single-process mode keeps its documents by default. */
export const defaultDataDir = fileURLToPath(new URL('../../.data', import.meta.url));

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
  })
  .superRefine((env, context) => checkMailEnv(env, context));
export type PlatformEnv = z.output<typeof platformEnvSchema>;

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
