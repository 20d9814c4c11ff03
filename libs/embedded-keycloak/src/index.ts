import { listeningUrl } from '@debate/nest';
import Fastify from 'fastify';
import mongoose, { type Connection } from 'mongoose';
import { join } from 'node:path';
import type { Broker, BrokerAlias } from './brokers.js';
import { EmbeddedIssuer } from './issuer.js';
import { issuerRoutes } from './issuer.routes.js';
import { loadOrCreateSecret, loadOrCreateSigningKey } from './keys.js';
import type { MailSettings } from './mail.js';
import { loadRealmSettings } from './realm.js';
import { RealmStore } from './store.js';

export {
  type Broker,
  type BrokerAlias,
  type BrokerEnv,
  brokerEnvSchema,
  brokersFrom,
  GithubBroker,
  GoogleBroker,
} from './brokers.js';
export type { UserRepresentation } from './admin-api.js';
export { AdminError, OAuthError } from './errors.js';
export { EmbeddedIssuer } from './issuer.js';
export { issuerRoutes } from './issuer.routes.js';
export type { MailSettings } from './mail.js';
export { loadRealmSettings, type RealmSettings } from './realm.js';
export type { TokenResponse } from './tokens.js';

export interface EmbeddedIssuerOptions {
  /** Where the issuer keeps its users and sessions: a database of its own, as Keycloak has. */
  readonly mongoUrl: string;
  readonly database?: string;
  /** Its signing key lives in `dataDir/issuer`. */
  readonly dataDir: string;
  /** The realm URL the tokens name as `iss`, e.g. http://localhost:3000/auth/realms/debate. */
  readonly issuerUrl: string | (() => string);
  /** The identity-service client's secret; by default one made once and kept in `dataDir`. */
  readonly serviceSecret?: string;
  /** Google and GitHub, where their OAuth app credentials are configured. */
  readonly brokers?: Partial<Record<BrokerAlias, Broker>>;
  /** Web origins besides the issuer's own that the web client may be sent back to. */
  readonly webOrigins?: readonly string[];
  /** Its clock (milliseconds since the epoch); the system's unless given. */
  readonly now?: () => number;
  /**
   * The SMTP server verify-email links are mailed through (Keycloak's smtpServer). Without it
   * send-verify-email answers 500, as Keycloak does without one.
   */
  readonly mail?: MailSettings;
}

export interface RunningIssuer {
  readonly issuer: EmbeddedIssuer;
  /** The identity-service client's secret (the identity service signs in to the admin API with it). */
  readonly serviceSecret: string;
  close(): Promise<void>;
}

/** The Keycloak-compatible issuer of development and tests (single-process and cluster mode). */
export async function createEmbeddedIssuer(options: EmbeddedIssuerOptions): Promise<RunningIssuer> {
  const connection: Connection = await mongoose
    .createConnection(options.mongoUrl, { dbName: options.database ?? 'keycloak' })
    .asPromise();
  try {
    const store = new RealmStore(connection);
    await store.init();
    const key = await loadOrCreateSigningKey(join(options.dataDir, 'issuer', 'signing-key.json'));
    const secret =
      options.serviceSecret ??
      loadOrCreateSecret(join(options.dataDir, 'issuer', 'identity-service.secret'));
    const issuer = new EmbeddedIssuer(
      loadRealmSettings(),
      store,
      key,
      options.issuerUrl,
      secret,
      options.now ?? Date.now,
      { brokers: options.brokers ?? {}, webOrigins: options.webOrigins ?? [] },
      options.mail,
    );
    return { issuer, serviceSecret: secret, close: () => connection.close() };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

export interface ServedIssuer extends RunningIssuer {
  /** Keycloak's base URL of the issuer, e.g. http://127.0.0.1:8180/auth */
  readonly baseUrl: string;
  /** The realm's URL: the tokens' `iss`. */
  readonly realmUrl: string;
}

/**
 * The embedded issuer on an HTTP server of its own, under Keycloak's paths (/auth/realms/…):
 * how its own process (main.ts, what start:cluster runs in Keycloak's place) serves it, and how
 * tests reach it.
 */
export async function serveEmbeddedIssuer(
  options: Omit<EmbeddedIssuerOptions, 'issuerUrl'> & { port: number; host: string },
): Promise<ServedIssuer> {
  let realmUrl = '';
  const running = await createEmbeddedIssuer({ ...options, issuerUrl: () => realmUrl });
  const http = Fastify();
  try {
    await http.register(async (scope) => issuerRoutes(scope, running.issuer), { prefix: '/auth' });
    await http.listen({ port: options.port, host: options.host });
  } catch (error) {
    await running.close();
    throw error;
  }
  const baseUrl = `${listeningUrl(http.server, options.host)}/auth`;
  realmUrl = `${baseUrl}/realms/${running.issuer.settings.name}`;
  return {
    ...running,
    baseUrl,
    realmUrl,
    close: async () => {
      await http.close();
      await running.close();
    },
  };
}
export {
  checkMailEnv,
  issuerEnvSchema,
  type IssuerEnv,
  issuerNodeEnvSchema,
  type MailEnv,
  mailEnvSchema,
  mailSettingsFrom,
  webOriginSchema,
} from './config.js';
