#!/usr/bin/env node
import { closeOnSignals, loadConfigOrExit } from '@debate/nest';
import { resolve } from 'node:path';
import { brokersFrom } from './brokers.js';
import { issuerEnvSchema, mailSettingsFrom } from './config.js';
import { serveEmbeddedIssuer } from './index.js';

/**
 * The embedded Keycloak-compatible issuer as a process of its own, in Keycloak's place: the
 * identity service reaches it at KEYCLOAK_URL=<this base URL>, with KEYCLOAK_CLIENT_SECRET as given
 * here or as DATA_DIR/issuer/identity-service.secret holds it.
 */
const env = loadConfigOrExit('the embedded issuer', issuerEnvSchema);
const mail = mailSettingsFrom(env);
const issuer = await serveEmbeddedIssuer({
  mongoUrl: env.MONGO_URL,
  dataDir: resolve(env.DATA_DIR),
  port: env.ISSUER_PORT,
  host: env.ISSUER_HOST,
  brokers: brokersFrom(env),
  webOrigins: env.WEB_ORIGIN,
  ...(env.KEYCLOAK_CLIENT_SECRET ? { serviceSecret: env.KEYCLOAK_CLIENT_SECRET } : {}),
  ...(mail ? { mail } : {}),
});
process.stdout.write(
  `The embedded issuer is listening at ${issuer.baseUrl} (realm ${issuer.realmUrl})\n`,
);
closeOnSignals(() => issuer.close());
