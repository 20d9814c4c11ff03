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
import {
  emailVerificationSummary,
  identityEnvSchema,
  keycloakSettings,
} from './identity.config.js';
import { IdentityServiceModule } from './identity-service.module.js';

// The service signs in against Keycloak over HTTP (KEYCLOAK_URL); in development the launchers
// put the embedded Keycloak-compatible issuer (libs/embedded-keycloak) at that address.
const env = loadConfigOrExit('the identity service', identityEnvSchema);
startTracing('identity');

const transport = serviceTransport(env, 'identity');
const app = await startService({
  service: 'identity',
  module: IdentityServiceModule.register({
    logLevel: env.LOG_LEVEL,
    transport,
    mongoUrl: serviceMongoUrl(env),
    keycloak: keycloakSettings(env),
    emailVerification: env.EMAIL_VERIFICATION,
  }),
  transport,
});
app.get(PinoLoggerService).log(emailVerificationSummary(env.EMAIL_VERIFICATION));
const operations = await serveServiceOperations(app, { port: env.OPS_PORT, host: env.OPS_HOST });
closeOnSignals(async () => {
  await app.close();
  await operations.close();
});
