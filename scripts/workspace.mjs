// Plain Node helpers for the workspace scripts: they run before any dependency is installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where downloads and builds are cached, outside the repository: $XDG_CACHE_HOME/debate. */
export const cacheRoot = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'debate');

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

/** Starts a long-running child whose output lines carry `label`. */
export function startChild(label, command, args, env = {}) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `[${label}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(prefix + line + '\n');
    });
  }
  return child;
}
