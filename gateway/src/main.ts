import 'reflect-metadata';
import { closeOnSignals, loadConfig, natsTransport } from '@debate/nest';
import { gatewayEnvSchema } from './config/gateway.config.js';
import { createGateway } from './create-gateway.js';

let env;
try {
  env = loadConfig('the gateway', gatewayEnvSchema);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}

const app = await createGateway({
  transport: natsTransport(env.NATS_URL),
  logLevel: env.LOG_LEVEL,
  driver: env.GRAPHQL_DRIVER,
  requestTimeoutMs: env.NATS_REQUEST_TIMEOUT_MS,
  healthTimeoutMs: env.HEALTH_TIMEOUT_MS,
  ...(env.WEB_DIST_DIR ? { webDistDir: env.WEB_DIST_DIR } : {}),
  ...(env.AUTH_ISSUER_URL ? { authIssuer: env.AUTH_ISSUER_URL } : {}),
});
app.enableShutdownHooks();
await app.listen({ port: env.PORT, host: env.HOST });
closeOnSignals(() => app.close());
