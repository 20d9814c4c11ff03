// What every file of the suite shares: docker-compose.yml rendered by `docker-compose config`
// (Debian's 1.29, or Compose v2 and later with COMPOSE='docker compose') with an .env of the
// test's choice, a rendered service read as the engine receives it, and the check's own .env
// (.env.example with every secret and setting filled). Each rule is a test named after it that
// lists every problem it finds.
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { natsPasswordVariable } from '../nats-config.mjs';
import { root } from '../workspace.mjs';
import {
  DATABASE_OWNERS,
  LOCAL_MODEL,
  mongoPasswordVariable,
  NATS_USERS,
  SECRETS,
  SETTINGS,
} from './deployment.mjs';

/**
 * A test named after the rule it checks: `check` is given `problem`, to call with each breach it
 * finds, and the test context (to skip, or to add a note); the test fails listing them all.
 */
export function rule(name, check) {
  test(name, async (t) => {
    const problems = [];
    await check((text) => problems.push(text), t);
    if (problems.length > 0) {
      throw new Error(`${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
    }
  });
}

/**
 * The contracts (ModelCatalog), when built; undefined on a fresh clone, before any install (the
 * rest of the suite needs none).
 */
export const contracts = await import('@debate/contracts').then(
  (module) => (module.ModelCatalog ? module : undefined),
  () => undefined,
);

export const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
export const exampleText = readFileSync(join(root, '.env.example'), 'utf8');
export const work = mkdtempSync(join(tmpdir(), 'compose-check-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

export const compose = (process.env.COMPOSE ?? 'docker-compose').split(' ').filter(Boolean);
const composeVersion = spawnSync(compose[0], [...compose.slice(1), 'version', '--short'], {
  encoding: 'utf8',
});
if (composeVersion.error || composeVersion.status !== 0) {
  throw new Error(
    `docker-compose.yml cannot be checked: ${compose.join(' ')} does not run ` +
      `(${composeVersion.error?.message ?? composeVersion.stderr.trim()}); install Debian's ` +
      "docker-compose package (.ci/run does), or set COMPOSE='docker compose'",
  );
}
export const composeRelease = composeVersion.stdout.trim();
/** Compose 1.x prints YAML only; Compose v2 and later print JSON when asked. */
const composeV1 = /^v?1\./.test(composeRelease);
/**
 * Compose 1.x's YAML reader (PyYAML prints it, as YAML 1.1). Loaded only for 1.x, so that with
 * Compose v2 the suite still runs on a fresh clone, before any install.
 */
const readYaml = composeV1
  ? await import('yaml').then(
      ({ parse }) =>
        (text) =>
          parse(text, { version: '1.1' }),
      (error) => {
        throw new Error(
          `cannot read docker-compose's YAML without the yaml package (${error.message}): ` +
            "run npm ci first, or use Compose v2 (COMPOSE='docker compose')",
        );
      },
    )
  : undefined;

export function parseEnv(text) {
  const entries = new Map();
  for (const line of text.split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) entries.set(match[1], match[2]);
  }
  return entries;
}
export const envText = (entries) =>
  [...entries].map(([name, value]) => `${name}=${value}\n`).join('');

/**
 * `docker-compose config` of the file, and of the `overrides` after it, with `env` as its .env:
 * the rendered project, or why not.
 */
export function render(env, name = 'env', overrides = []) {
  const file = join(work, `${name}.env`);
  writeFileSync(file, typeof env === 'string' ? env : envText(env));
  const files = ['docker-compose.yml', ...overrides].flatMap((path) => ['-f', path]);
  // The optional profile on: its service is rendered (and checked) with the rest.
  const args = ['--env-file', file, '--profile', LOCAL_MODEL.profile, ...files, 'config'];
  const result = spawnSync(
    compose[0],
    [...compose.slice(1), ...args, ...(composeV1 ? [] : ['--format', 'json'])],
    {
      cwd: root,
      encoding: 'utf8',
      // Only the .env given: nothing from this shell's environment.
      env: Object.fromEntries(
        ['PATH', 'HOME', 'DOCKER_CONFIG']
          .filter((name) => process.env[name] !== undefined)
          .map((name) => [name, process.env[name]]),
      ),
    },
  );
  if (result.status !== 0) return { ok: false, stderr: result.stderr };
  return { ok: true, project: composeV1 ? readYaml(result.stdout) : JSON.parse(result.stdout) };
}

/** A string as the engine receives it: config output keeps `$$` escaped. */
export const unescape = (value) =>
  typeof value === 'string' ? value.replaceAll('$$', '$') : value;
export const environmentOf = (service) =>
  Object.fromEntries(
    Object.entries(service?.environment ?? {}).map(([name, value]) => [
      name,
      unescape(String(value ?? '')),
    ]),
  );
export const hasHealthcheck = (service) => {
  const test = service?.healthcheck?.test;
  return Boolean(test) && !service.healthcheck.disable && test[0] !== 'NONE' && test !== 'NONE';
};
export const conditionOf = (dependency) =>
  typeof dependency === 'object' && dependency !== null ? dependency.condition : 'service_started';
/** The package name in a project folder's package.json, if it has one. */
export function packageNameOf(dir) {
  const manifest = join(root, dir, 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).name : undefined;
}

/** Runs a command (argv) with `env`; resolves with its exit code and output. */
export function runAsync(argv, env) {
  return new Promise((resolvePromise) => {
    execFile(argv[0], argv.slice(1), { env, timeout: 10_000 }, (error, stdout, stderr) => {
      resolvePromise({ code: error ? (error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

// --- The check's own .env ---------------------------------------------------------------------

export const example = parseEnv(exampleText);
/**
 * .env.example with every secret filled, each with a value of its own; the MongoDB and NATS
 * passwords full of what a URL cannot carry as it is (`@`, `/`, `:`, `%`, and `%41`, which a URL
 * reads as `A`).
 */
const AWKWARD_PASSWORD_VARIABLES = new Set([
  ...DATABASE_OWNERS.map(mongoPasswordVariable),
  ...NATS_USERS.map(natsPasswordVariable),
]);
export const filled = new Map(example);
/** Each secret's value in `filled`. */
export const secretValues = new Map();
for (const secret of Object.keys(SECRETS)) {
  const name = secret.toLowerCase().replaceAll('_', '-');
  const awkward = AWKWARD_PASSWORD_VARIABLES.has(secret) ? '@/:%41%@:/' : '';
  const value = `${name}-${awkward}${randomBytes(6).toString('hex')}`;
  filled.set(secret, value);
  secretValues.set(secret, value);
}
for (const [setting, { value }] of Object.entries(SETTINGS)) filled.set(setting, value);

let filledRendering;
/** The file rendered with `filled` (once per file of the suite). */
export function renderFilled() {
  filledRendering ??= render(filled, 'filled');
  return filledRendering;
}
/** The rendered services with `filled`; throws when compose refuses it (a test says why). */
export function filledServices() {
  const rendering = renderFilled();
  if (!rendering.ok) {
    throw new Error(`docker-compose.yml does not render with the secrets filled`);
  }
  return rendering.project.services ?? {};
}
/** A service of the rendering with `filled`; throws when there is none. */
export function filledService(name) {
  const service = filledServices()[name];
  if (!service) throw new Error(`there is no ${name} service`);
  return service;
}
