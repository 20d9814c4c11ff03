// The realm file compose's Keycloak imports, and Keycloak's entrypoint run here on the rendered
// environment with a stand-in of the image's kc.sh that prints what it was given.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../workspace.mjs';
import { environmentOf, parseEnv, render, runAsync, unescape, work } from './compose.mjs';

const realmText = readFileSync(join(root, 'deploy/keycloak/debate-realm.json'), 'utf8');
export const realm = JSON.parse(realmText);
/** The realm's placeholders: [text, name, `:default` or undefined]. */
export const placeholders = [...realmText.matchAll(/\$\{([A-Za-z0-9_]+)(:[^}]*)?\}/g)];

/**
 * Keycloak's start with `env` as its .env: the environment and arguments kc.sh gets, or its
 * refusal (code and stderr), or why it could not be run (error).
 */
export async function keycloakStart(env, name) {
  const rendered = render(env, name);
  if (!rendered.ok) return { error: `does not render: ${rendered.stderr.trim()}` };
  const service = rendered.project.services?.keycloak;
  if (!service) return { error: 'there is no keycloak service' };
  const environment = { PATH: process.env.PATH ?? '', ...environmentOf(service) };
  const entrypoint = (service.entrypoint ?? []).map(unescape);
  if (entrypoint.length === 0) return { code: 0, environment };
  const stub = join(work, 'kc-stub.sh');
  writeFileSync(stub, '#!/bin/sh\necho "ARGS=$*"\nenv\n');
  chmodSync(stub, 0o755);
  if (!entrypoint.some((arg) => arg.includes('/opt/keycloak/bin/kc.sh'))) {
    return { error: "its entrypoint never starts Keycloak's own, /opt/keycloak/bin/kc.sh" };
  }
  const argv = [
    ...entrypoint.map((arg) => arg.replaceAll('/opt/keycloak/bin/kc.sh', stub)),
    ...(service.command ?? []).map(unescape),
  ];
  const run = await runAsync(argv, environment);
  if (run.code !== 0) return { code: run.code, stderr: run.stderr };
  const printed = parseEnv(run.stdout);
  const args = /^ARGS=(.*)$/m.exec(run.stdout)?.[1] ?? '';
  return { code: 0, environment: Object.fromEntries(printed), args };
}
