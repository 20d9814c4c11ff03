import { rmSync } from 'node:fs';
import stopMail from '../../../scripts/mailpit-jest-teardown.mjs';

export default async function globalTeardown() {
  const keycloak = globalThis.__KEYCLOAK__;
  if (keycloak) {
    await keycloak.stop();
    rmSync(keycloak.dataDir, { recursive: true, force: true });
  }
  await stopMail();
}
