import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  const keycloak = globalThis.__KEYCLOAK__;
  if (!keycloak) return;
  await keycloak.stop();
  rmSync(keycloak.dataDir, { recursive: true, force: true });
}
