import { gatewayEnvSchema } from '@debate/gateway';
import { speakerEnvSchema } from '@debate/generation-service';
import { brokerEnvSchema, checkMailEnv, mailEnvSchema } from '@debate/embedded-keycloak';
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
  .omit({ NATS_URL: true, JETSTREAM_REPLICAS: true, AUTH_ISSUER_URL: true, AUTH_JWKS_URL: true })
  .extend(brokerEnvSchema.shape)
  .extend(speakerEnvSchema.shape)
  .extend(usageRulesEnvSchema.shape)
  .extend(emailVerificationEnvSchema.shape)
  .extend(mailEnvSchema.shape)
  .extend({
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
