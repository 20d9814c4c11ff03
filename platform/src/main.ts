import 'reflect-metadata';
import { start as startStore } from '@debate/embedded-mongo';
import { gatewayLimitsOf } from '@debate/gateway';
import { brokersFrom, mailSettingsFrom } from '@debate/embedded-keycloak';
import { emailVerificationSummary } from '@debate/identity-service';
import {
  closeOnSignals,
  createClientProxy,
  inProcessTransport,
  loadConfigOrExit,
  ServiceClient,
  startOperationsServer,
  startTracing,
  tuneRuntime,
} from '@debate/nest';
import { MongoClient } from 'mongodb';
import { join } from 'node:path';
import { startLocalModel } from './local-model.js';
import { listenAddresses, listeningLine, platformEnvSchema } from './platform.config.js';
import { seedExamples } from './seed-examples.js';
import { startPlatform } from './start-platform.js';

/**
 * Single-process mode: the five services and the gateway in this one Node process, and, unless
 * MONGO_URL names a MongoDB, the embedded MongoDB-compatible server with its data in DATA_DIR.
 */
tuneRuntime();
const env = loadConfigOrExit('the platform', platformEnvSchema);
const addresses = listenAddresses(env);
startTracing('platform');

const dbPath = join(env.DATA_DIR, 'mongo');
const store = env.MONGO_URL ? undefined : await startStore({ port: env.MONGO_PORT, dbPath });
const mongoUrl = store?.uri ?? env.MONGO_URL ?? '';

// The local model before the services, so the generation service knows where it is: the server
// listens at once, the download (or the loading) goes on in the background.
const localModel = await startLocalModel(env);

const mail = mailSettingsFrom(env);
const transport = inProcessTransport();
const platform = await startPlatform({
  transport,
  port: env.PORT,
  host: addresses.web,
  logLevel: env.LOG_LEVEL,
  requestTimeoutMs: env.NATS_REQUEST_TIMEOUT_MS,
  ...(env.WEB_DIST_DIR ? { webDistDir: env.WEB_DIST_DIR } : {}),
  mongoUrl,
  dataDir: env.DATA_DIR,
  brokers: brokersFrom(env),
  testAccountEmail: env.USAGE_TEST_ACCOUNT_EMAIL,
  testAccountId: env.USAGE_TEST_ACCOUNT_ID,
  abandonedRunAfterMs: env.USAGE_ABANDONED_RUN_MS,
  startsPerMinute: env.USAGE_STARTS_PER_MINUTE,
  leaderboardDailyLimit: env.LEADERBOARD_DAILY_LIMIT,
  speakers: localModel.server ? { ...env, LOCAL_MODEL_SERVER: localModel.server.origin } : env,
  ...(env.TRUST_PROXY === undefined ? {} : { trustProxy: env.TRUST_PROXY }),
  limits: gatewayLimitsOf(env),
  emailVerification: env.EMAIL_VERIFICATION,
  ...(mail ? { mail } : {}),
});
// Probes and /metrics of the whole process, apart from the public port.
const storeClient = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 2_000 });
const operations = await startOperationsServer({
  port: env.OPS_PORT,
  host: addresses.operations,
  checks: {
    store: async () => {
      await storeClient.db('admin').command({ ping: 1 });
      return true;
    },
  },
});
process.stdout.write(
  `Operations (health probes, /metrics): ${operations.url}\n` +
    `Documents: ${store ? `embedded server at ${mongoUrl} (data in ${dbPath})` : mongoUrl}\n` +
    `Sign-in: the embedded Keycloak-compatible issuer at ${platform.url}/auth (realm debate)\n` +
    `${localModel.summary()}\n` +
    `${emailVerificationSummary(env.EMAIL_VERIFICATION, mail)}\n` +
    `${listeningLine(addresses)}\n` +
    `The debate platform is ready at ${platform.url}\n`,
);
closeOnSignals(async () => {
  await operations.close();
  await storeClient.close();
  await platform.stop();
  await localModel.server?.close();
  await store?.stop();
});

// A first look at an empty community finds examples (SEED_EXAMPLES); a failure costs only them.
if (env.SEED_EXAMPLES) {
  const seeder = new ServiceClient(
    createClientProxy(transport, { anonymous: 'platform-examples' }),
  );
  try {
    const shared = await seedExamples(seeder);
    if (shared > 0) {
      process.stdout.write(
        `Examples: ${shared} example debates shared (SEED_EXAMPLES=false: none)\n`,
      );
    }
  } catch (error) {
    process.stdout.write(`Examples: not all shared (${String(error)}); the next start goes on\n`);
  } finally {
    await seeder.close();
  }
}
