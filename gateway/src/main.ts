import 'reflect-metadata';
import {
  checkNatsIdentity,
  closeOnSignals,
  loadConfigOrExit,
  natsSettingsOf,
  natsTransport,
  PinoLoggerService,
  ServiceClient,
  startOperationsServer,
  startTracing,
  stopTracing,
  tuneRuntime,
} from '@debate/nest';
import { gatewayEnvSchema, gatewayLimitsOf } from './config/gateway.config.js';
import { createGateway } from './create-gateway.js';

tuneRuntime();
const env = loadConfigOrExit('the gateway', gatewayEnvSchema.superRefine(checkNatsIdentity));
startTracing('gateway');

const { url: natsUrl, ...natsIdentity } = natsSettingsOf(env, 'gateway');
const app = await createGateway({
  transport: natsTransport(natsUrl, {
    ...natsIdentity,
    ...(env.JETSTREAM_REPLICAS ? { jetstreamReplicas: env.JETSTREAM_REPLICAS } : {}),
  }),
  limits: gatewayLimitsOf(env),
  logLevel: env.LOG_LEVEL,
  requestTimeoutMs: env.NATS_REQUEST_TIMEOUT_MS,
  ...(env.WEB_DIST_DIR ? { webDistDir: env.WEB_DIST_DIR } : {}),
  ...(env.AUTH_ISSUER_URL ? { authIssuer: env.AUTH_ISSUER_URL } : {}),
  ...(env.AUTH_JWKS_URL ? { authJwksUrl: env.AUTH_JWKS_URL } : {}),
  ...(env.TRUST_PROXY === undefined ? {} : { trustProxy: env.TRUST_PROXY }),
  alwaysSecureCookies: env.NODE_ENV === 'production',
});
app.enableShutdownHooks();
await app.listen({ port: env.PORT, host: env.HOST });
// Ready once its NATS connection answers; the services' own health is theirs to report.
const services = app.get(ServiceClient);
const operations = await startOperationsServer({
  port: env.OPS_PORT,
  host: env.OPS_HOST,
  checks: { nats: () => services.ping() },
});
app
  .get(PinoLoggerService)
  .log(`The gateway is listening at ${await app.getUrl()}, operations at ${operations.url}`);
closeOnSignals(async () => {
  await app.close();
  await operations.close();
  await stopTracing();
});
