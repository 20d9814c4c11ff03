// What the load runs share (scripts/load.mjs, scripts/load-faults.mjs): free ports for an
// isolated platform, the environment it runs in, stopping its processes, and k6's arguments.
import { createServer } from 'node:net';
import { freePort as systemFreePort, groupAlive } from './workspace.mjs';

export function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Free ports of 127.0.0.1, each handed out once: single ones, or `length` in a row. */
export function portAllocator() {
  const taken = new Set();
  async function freePort() {
    for (;;) {
      const port = await systemFreePort();
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  }
  async function freePortRange(length) {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      // Below the kernel's ephemeral range (32768 and up), where outgoing connections take theirs.
      const base = 20_000 + Math.floor(Math.random() * 12_000);
      const ports = Array.from({ length }, (_, i) => base + i);
      if (ports.some((port) => taken.has(port))) continue;
      if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) {
        for (const port of ports) taken.add(port);
        return base;
      }
    }
    throw new Error(`found no ${length} free ports in a row`);
  }
  return { freePort, freePortRange };
}

/**
 * This shell's environment without what would point the platform at someone else's store,
 * Keycloak or model provider (MONGO_URL, KEYCLOAK_*, AUTH_ISSUER_URL, AUTH_JWKS_URL, OPENAI_*),
 * and the names it left out: a load test runs on its own store, sign-in of its own, and the
 * offline speaker (it never spends provider money).
 */
export function isolatedEnv() {
  const outside = /^(MONGO_URL|KEYCLOAK_\w+|AUTH_ISSUER_URL|AUTH_JWKS_URL|OPENAI_\w+)$/;
  const leftOut = Object.keys(process.env).filter((name) => outside.test(name));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !outside.test(name)),
  );
  return { env, leftOut };
}

export function exited(child) {
  return !child || child.exitCode !== null || child.signalCode !== null;
}

/** True once `child` has exited, false if it is still running after `ms`. */
export function waitForExit(child, ms) {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** SIGTERM, then SIGKILL, to what is left of process group `pgid`, `ms` apart. */
export async function stopGroup(pgid, ms, say) {
  for (const signal of ['SIGTERM', 'SIGKILL']) {
    if (!groupAlive(pgid)) return;
    say(`sending ${signal} to what is left of the cluster (group ${pgid})`);
    try {
      process.kill(-pgid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + ms;
    while (groupAlive(pgid) && Date.now() < deadline) await delay(100);
  }
}

/**
 * The arguments of `k6 run` common to the load runs: quiet, no usage report, and only the
 * variables given with -e reach the scenario (nothing from this shell's environment).
 */
export const K6_RUN = ['run', '--quiet', '--no-usage-report', '--include-system-env-vars=false'];
