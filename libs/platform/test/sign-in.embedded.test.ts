import { start as startStore } from '@debate/embedded-mongo';
import { serveEmbeddedIssuer } from '@debate/identity-service';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSignIn } from './sign-in-suite.js';

// The embedded Keycloak-compatible issuer as the identity service serves it in `start:cluster`
// (its own port, its own database), held to the suite Keycloak passes (test/keycloak).
describeSignIn('the embedded issuer', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'embedded-realm-'));
  const store = await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
  const issuer = await serveEmbeddedIssuer({
    mongoUrl: store.uri,
    dataDir,
    port: 0,
    host: '127.0.0.1',
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
