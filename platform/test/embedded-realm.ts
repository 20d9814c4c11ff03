import { start as startStore } from '@debate/embedded-mongo';
import {
  type Broker,
  type BrokerAlias,
  type MailSettings,
  serveEmbeddedIssuer,
} from '@debate/embedded-keycloak';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealmUnderTest } from './sign-in-suite.js';

/**
 * The embedded Keycloak-compatible issuer as its own process serves it in `start:cluster`
 * (its own port, its own database), with `brokers` and `mail` configured.
 */
export async function startEmbeddedRealm(
  options: {
    brokers?: Partial<Record<BrokerAlias, Broker>>;
    webOrigins?: string[];
    mail?: MailSettings;
  } = {},
): Promise<RealmUnderTest> {
  const dataDir = mkdtempSync(join(tmpdir(), 'embedded-realm-'));
  const store = await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
  const issuer = await serveEmbeddedIssuer({
    mongoUrl: store.uri,
    dataDir,
    port: 0,
    host: '127.0.0.1',
    ...options,
  });
  return {
    baseUrl: issuer.baseUrl,
    realmUrl: issuer.realmUrl,
    serviceSecret: issuer.serviceSecret,
    close: async () => {
      await issuer.close();
      await store.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
