import { gatewayEnvSchema } from '@debate/gateway';
import { speakerEnvSchema } from '@debate/generation-service';
import { brokerEnvSchema } from '@debate/identity-service';
import { mongoUrl, optionalEnv } from '@debate/nest';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The workspace's `.data`: where single-process mode keeps its documents by default. */
export const defaultDataDir = fileURLToPath(new URL('../../../.data', import.meta.url));

/** Single-process mode reads the gateway's variables, and where its documents live. */
export const platformEnvSchema = gatewayEnvSchema
  .extend(brokerEnvSchema.shape)
  .extend(speakerEnvSchema.shape)
  .extend({
    /** A MongoDB to use instead of the embedded server. */
    MONGO_URL: optionalEnv(mongoUrl.optional()),
    DATA_DIR: optionalEnv(z.string().min(1).default(defaultDataDir)),
    /** The embedded server's port (loopback only). */
    MONGO_PORT: optionalEnv(z.coerce.number().int().min(0).max(65_535).default(27017)),
    /** The designated test account with a daily allowance of 100. */
    USAGE_TEST_ACCOUNT_EMAIL: optionalEnv(z.email().optional()),
    /** How long a run may stay open before its debate is given back. */
    USAGE_ABANDONED_RUN_MS: optionalEnv(z.coerce.number().int().min(1_000).default(3_600_000)),
  });
export type PlatformEnv = z.output<typeof platformEnvSchema>;
