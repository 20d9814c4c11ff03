import 'reflect-metadata';
import {
  closeOnSignals,
  loadConfigOrExit,
  PinoLoggerService,
  serveServiceOperations,
  serviceMongoUrl,
  serviceTransport,
  startService,
  startTracing,
} from '@debate/nest';
import { resolve } from 'node:path';
import {
  emailVerificationSummary,
  identityEnvSchema,
  keycloakSettings,
  mailSettingsFrom,
} from './identity.config.js';
import { IdentityServiceModule } from './identity-service.module.js';
import { brokersFrom, serveEmbeddedIssuer } from './issuer/index.js';

const env = loadConfigOrExit('the identity service', identityEnvSchema);
const mongoUrl = serviceMongoUrl(env);
startTracing('identity');

// Without KEYCLOAK_URL the service serves the embedded issuer at http://host:ISSUER_PORT/auth,
// and signs in against it over HTTP exactly as it would against Keycloak.
let realm: { baseUrl: string; serviceSecret: string };
const mail = mailSettingsFrom(env);
let stopIssuer = async () => {};
if (env.KEYCLOAK_URL && env.KEYCLOAK_CLIENT_SECRET) {
  realm = { baseUrl: env.KEYCLOAK_URL, serviceSecret: env.KEYCLOAK_CLIENT_SECRET };
} else {
  const issuer = await serveEmbeddedIssuer({
    mongoUrl,
    dataDir: resolve(env.DATA_DIR),
    port: env.ISSUER_PORT,
    host: env.ISSUER_HOST,
    brokers: brokersFrom(env),
    webOrigins: env.WEB_ORIGIN,
    ...(mail ? { mail } : {}),
  });
  realm = { baseUrl: issuer.baseUrl, serviceSecret: issuer.serviceSecret };
  stopIssuer = () => issuer.close();
}

const transport = serviceTransport(env);
const app = await startService({
  service: 'identity',
  module: IdentityServiceModule.register({
    logLevel: env.LOG_LEVEL,
    transport,
    mongoUrl,
    keycloak: keycloakSettings(env, realm),
    emailVerification: env.EMAIL_VERIFICATION,
  }),
  transport,
});
app.get(PinoLoggerService).log(emailVerificationSummary(env));
const operations = await serveServiceOperations(app, { port: env.OPS_PORT, host: env.OPS_HOST });
closeOnSignals(async () => {
  await app.close();
  await operations.close();
  await stopIssuer();
});
