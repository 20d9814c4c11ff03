// Plain Node helpers for the workspace scripts: they run before any dependency is installed.
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where downloads and builds are cached, outside the repository: $XDG_CACHE_HOME/debate. */
export const cacheRoot = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'debate');

/**
 * The arguments of the one-process platform's Node (npm start, and the benchmarks and screenshots
 * that run it as npm start does): V8's young generation capped at Node 20's 16 MB a semi-space.
 * Node 24 sizes it from the heap limit, which it derives from the machine's memory: on a 24 GiB
 * machine it grows to 64 MB semi-spaces under a burst and keeps some 100 MB more resident
 * (docs/benchmarks.md#generation-benchmark). A container's memory limit sizes it down by itself.
 */
export const platformArgs = ['--max-semi-space-size=16', 'platform/dist/main.js'];

/** Runs a command to completion in the workspace root, or exits with its status. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NX_TUI: 'false', NX_NO_CLOUD: 'true', ...options.env },
  });
  if (result.status !== 0) {
    process.stderr.write(
      `\n${command} ${args.join(' ')} failed (${result.status ?? result.signal})\n`,
    );
    process.exit(result.status ?? 1);
  }
}

/**
 * Runs `npx nx <args>` as `run` does, its output streamed through; when a run-many fails, prints
 * the output of each failed task again at the end. A CI log is often read from its tail, and a
 * run-many's failing task printed its reasons minutes of output earlier.
 */
export async function runNx(args) {
  const child = spawn('npx', ['nx', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Without log grouping: on GitHub Actions Nx would wrap each task's header in ::group::.
    env: { ...process.env, NX_TUI: 'false', NX_NO_CLOUD: 'true', NX_SKIP_LOG_GROUPING: 'true' },
  });
  /** Each task's output lines, by task ("project:target"), as Nx's static style prints them. */
  const sections = new Map();
  let current = [];
  const failed = [];
  let inFailedList = false;
  eachLine(child.stdout, (line) => {
    process.stdout.write(line + '\n');
    const plain = stripVTControlCharacters(line);
    const start = /^> nx run (\S+)/.exec(plain);
    if (start) {
      current = [];
      sections.set(start[1], current);
    }
    current.push(line);
  });
  // Nx's summary, with the list of failed tasks, comes on stderr.
  eachLine(child.stderr, (line) => {
    process.stderr.write(line + '\n');
    const plain = stripVTControlCharacters(line);
    if (/^\s*Failed tasks:/.test(plain)) inFailedList = true;
    const listed = inFailedList && /^\s*- (\S+:\S+)/.exec(plain);
    if (listed) failed.push(listed[1]);
  });
  const status = await new Promise((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? signal)),
  );
  if (status === 0) return;
  // A single target's output is the tail already: only a run-many's is gathered.
  for (const task of args[0] === 'run-many' ? failed : []) {
    process.stdout.write(`\n──── ${task} failed; its output again ────\n`);
    process.stdout.write((sections.get(task) ?? ['(none captured)']).join('\n') + '\n');
  }
  process.stderr.write(`\nnpx nx ${args.join(' ')} failed (${status})\n`);
  process.exit(typeof status === 'number' ? status : 1);
}

/** Installs the dependencies (npm ci) when node_modules is missing or older than the lockfile. */
export function ensureInstalled() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  process.stdout.write('Installing dependencies (npm ci)…\n');
  // The build tools are dev dependencies: with NODE_ENV=production npm ci would leave them out.
  run('npm', ['ci', '--include=dev', '--no-audit', '--no-fund']);
}

/** Builds every project Nx knows, from cache where nothing changed. */
export function buildAll() {
  run('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static']);
}

export function isListening(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A TCP port nothing listens on at the moment (the system's pick). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Calls `onLine` with each whole line `stream` writes. */
export function eachLine(stream, onLine) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
  stream.on('end', () => {
    if (pending !== '') onLine(pending);
  });
}

/** Whether any process of the process group `pgid` is still alive. */
export function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts a long-running child whose output lines carry `label`. */
export function startChild(label, command, args, env = {}) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `[${label}] `;
  for (const stream of [child.stdout, child.stderr]) {
    eachLine(stream, (line) => process.stdout.write(prefix + line + '\n'));
  }
  return child;
}

/**
 * The platform as `npm start` runs it (the built platform, one process), on free ports with
 * a data directory of its own, `env` added. Resolves once it is ready: { url, opsUrl, child }.
 * It is stopped and its data removed when this process exits.
 */
export async function startPlatformProcess(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'debate-platform-'));
  const child = spawn(process.execPath, platformArgs, {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      MONGO_PORT: '0',
      DATA_DIR: dataDir,
      OPS_PORT: '0',
      OPENAI_API_KEY: '',
      // What a benchmark or a screenshot seeds, and nothing else.
      SEED_EXAMPLES: 'false',
      // No local model (it would fetch 1.1 GB): the offline speaker, unless `env` asks for one.
      LOCAL_MODEL: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.on('exit', () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`the platform did not start:\n${output}`)),
      60_000,
    );
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const ready = /is ready at (http:\/\/\S+)/.exec(output);
      const operations = /Operations \(health probes, \/metrics\): (http:\/\/\S+)/.exec(output);
      if (ready && operations) {
        clearTimeout(timer);
        resolve({ url: ready[1], opsUrl: operations[1], child });
      }
    });
    child.once('exit', (code) => reject(new Error(`the platform exited (${code}):\n${output}`)));
  });
}

/**
 * The embedded Keycloak-compatible issuer (the built libs/embedded-keycloak) as a process of its
 * own on a free port, in Keycloak's place for a cluster of separate processes, with its own
 * identity-service secret. Resolves once it listens: { url, secret, child }, where `url` is the
 * base URL the identity service takes as KEYCLOAK_URL and `secret` its KEYCLOAK_CLIENT_SECRET.
 * It is stopped when this process exits.
 */
export async function startEmbeddedIssuerProcess({ mongoUrl, dataDir, env = {} }) {
  const secret = randomBytes(32).toString('base64url');
  const child = spawn(process.execPath, ['libs/embedded-keycloak/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      MONGO_URL: mongoUrl,
      DATA_DIR: dataDir,
      ISSUER_PORT: '0',
      KEYCLOAK_CLIENT_SECRET: secret,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.on('exit', () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`the embedded issuer did not start:\n${output}`)),
      30_000,
    );
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const listening = /The embedded issuer is listening at (http:\/\/\S+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve({ url: listening[1], secret, child });
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`the embedded issuer exited (${code}):\n${output}`)),
    );
  });
}
