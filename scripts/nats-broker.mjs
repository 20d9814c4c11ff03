// The broker of start:cluster and the load run: nats-server with JetStream, each deployable its
// own NATS user (a new random password every run) with the subject permissions of
// @debate/contracts' natsPermissions. Needs the built contracts (buildAll).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes, in `dir` (kept 0700), the broker's configuration (nats-server.conf: the users and
 * their permissions) and each deployable's new password (nats-passwords.json), both 0600.
 * Returns the files and the passwords.
 */
export async function writeNatsAuthorization(dir) {
  const { natsAuthorization, natsDeployables } = await import('@debate/contracts');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const passwords = Object.fromEntries(
    natsDeployables.map((deployable) => [deployable, randomBytes(24).toString('base64url')]),
  );
  const configFile = join(dir, 'nats-server.conf');
  const passwordsFile = join(dir, 'nats-passwords.json');
  writeFileSync(configFile, natsAuthorization(passwords), { mode: 0o600 });
  writeFileSync(passwordsFile, `${JSON.stringify(passwords, null, 2)}\n`, { mode: 0o600 });
  return { configFile, passwordsFile, passwords };
}

/** The passwords writeNatsAuthorization wrote to `file`. */
export function readNatsPasswords(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** nats-server's arguments: on 127.0.0.1:`port`, JetStream in `store`, the users of `configFile`. */
export function natsServerArgs({ port, store, configFile }) {
  return ['-c', configFile, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store];
}

/** The environment a deployable connects to the broker with: its user and password. */
export function natsIdentityEnv(passwords, deployable) {
  if (!passwords) return {};
  return { NATS_USER: deployable, NATS_PASSWORD: passwords[deployable] };
}

/**
 * One server of start:cluster's three-server cluster: its configuration file in `store` (its
 * name, pings and routes as production sets them, natsClusterSettings; JetStream in `store`;
 * the users of `authorizationFile`, as writeNatsAuthorization wrote it) and its arguments, on
 * 127.0.0.1:`port` with its monitoring (/healthz) on `monitorPort`.
 */
export async function natsClusterServer({
  name,
  port,
  monitorPort,
  routePort,
  routes,
  store,
  authorizationFile,
}) {
  const { natsClusterSettings } = await import('@debate/contracts');
  mkdirSync(store, { recursive: true });
  const configFile = join(store, 'nats-server.conf');
  const config = [
    natsClusterSettings({ serverName: name, listen: `127.0.0.1:${routePort}`, routes }),
    `jetstream { store_dir: ${JSON.stringify(store)} }`,
    readFileSync(authorizationFile, 'utf8'),
  ].join('\n');
  writeFileSync(configFile, config, { mode: 0o600 });
  return ['-c', configFile, '-a', '127.0.0.1', '-p', String(port), '-m', String(monitorPort)];
}
