import { gatewayEnvSchema } from '@debate/gateway';
import { speakerEnvSchema } from '@debate/generation-service';
import { brokerEnvSchema, checkMailEnv, mailEnvSchema } from '@debate/identity-service';
import { usageRulesEnvSchema } from '@debate/usage-service';
import { mongoUrl, optionalEnv } from '@debate/nest';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The workspace's `.data`: where single-process mode keeps its documents by default. */
export const defaultDataDir = fileURLToPath(new URL('../../../.data', import.meta.url));

/** Single-process mode reads the gateway's variables, and where its documents live. */
export const platformEnvSchema = gatewayEnvSchema
  .extend(brokerEnvSchema.shape)
  .extend(speakerEnvSchema.shape)
  .extend(usageRulesEnvSchema.shape)
  .extend(mailEnvSchema.shape)
  .extend({
    /** A MongoDB to use instead of the embedded server. */
    MONGO_URL: optionalEnv(mongoUrl.optional()),
    DATA_DIR: optionalEnv(z.string().min(1).default(defaultDataDir)),
    /** The embedded server's port (loopback only). */
    MONGO_PORT: optionalEnv(z.coerce.number().int().min(0).max(65_535).default(27017)),
  })
  .superRefine((env, context) => checkMailEnv(env, context));
export type PlatformEnv = z.output<typeof platformEnvSchema>;
