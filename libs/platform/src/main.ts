import 'reflect-metadata';
import { gatewayEnvSchema } from '@debate/gateway';
import { closeOnSignals, inProcessTransport, loadConfig } from '@debate/nest';
import { startPlatform } from './start-platform.js';

/** Single-process mode: the five services and the gateway in this one Node process. */
let env;
try {
  env = loadConfig('the platform', gatewayEnvSchema);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}

const platform = await startPlatform({
  transport: inProcessTransport(),
  port: env.PORT,
  host: env.HOST,
  logLevel: env.LOG_LEVEL,
  driver: env.GRAPHQL_DRIVER,
  requestTimeoutMs: env.NATS_REQUEST_TIMEOUT_MS,
  healthTimeoutMs: env.HEALTH_TIMEOUT_MS,
  ...(env.WEB_DIST_DIR ? { webDistDir: env.WEB_DIST_DIR } : {}),
});
process.stdout.write(`The debate platform is ready at ${platform.url}\n`);
closeOnSignals(() => platform.stop());
