import { start as startStore } from '@debate/embedded-mongo';
import { brokerEnvSchema, brokersFrom, serveEmbeddedIssuer } from '@debate/identity-service';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBrokeredSignIn, WEB_ORIGIN } from './brokered-sign-in-suite.js';

describeBrokeredSignIn('the embedded issuer', async (providers) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'embedded-broker-'));
  const store = await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
  const issuer = await serveEmbeddedIssuer({
    mongoUrl: store.uri,
    dataDir,
    port: 0,
    host: '127.0.0.1',
    brokers: brokersFrom(brokerEnvSchema.parse(providers.env())),
    webOrigins: [WEB_ORIGIN],
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
});
