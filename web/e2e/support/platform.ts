import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const workspaceRoot = fileURLToPath(new URL('../../../', import.meta.url));
const entry = fileURLToPath(new URL('../../../platform/dist/main.js', import.meta.url));

export interface RunningApp {
  readonly url: string;
  /** What the platform (or the cluster) has printed so far, stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/** What every test's platform runs with, in process or as a cluster. */
const testSettings = {
  LOG_LEVEL: 'warn',
  // An empty community, as most tests need it (edges.e2e.ts asks for the examples).
  SEED_EXAMPLES: 'false',
  // No local model: npm start would fetch a 1.1 GB model on a machine without one. A test that
  // wants it asks (local-model.e2e.ts: LOCAL_MODEL=on with the tests' tiny model or a mirror).
  LOCAL_MODEL: 'off',
  // Every test signs up from 127.0.0.1: room for them all, the other limits as shipped.
  RATE_LIMITS: JSON.stringify({
    signUp: { address: '1000/1h', global: '1000/1m' },
    signIn: { address: '1000/10m' },
  }),
};

/**
 * With E2E_PLATFORM=cluster: the platform as `npm run start:cluster` runs it, each service, the
 * gateway and the embedded issuer a process of its own over a broker of its own with NATS
 * permissions on, on free ports (scripts/e2e-cluster.mjs), one per test file. Stopping it fails
 * when the cluster did not stay up or the broker logged a permission violation; the cluster
 * also stops when this process goes away without stopping it (the end of the script's stdin).
 */
async function startCluster(extraEnv: Record<string, string>): Promise<RunningApp> {
  const child: ChildProcess = spawn(process.execPath, ['scripts/e2e-cluster.mjs'], {
    cwd: workspaceRoot,
    env: { ...process.env, ...testSettings, ...extraEnv },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    // Eight processes (the store, the issuer, five services, the gateway) on two cores.
    const timer = setTimeout(
      () => reject(new Error(`The cluster did not start within 3 min:\n${output}`)),
      180_000,
    );
    child.stdout?.on('data', () => {
      const ready = /The cluster is ready at (http:\/\/\S+)/.exec(output);
      if (ready?.[1]) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    });
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`The cluster exited (${code}):\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.stdin?.end();
      const code = await exit;
      // 2: the broker logged a permission violation; 1: the cluster did not stay up.
      if (code !== 0) throw new Error(`The cluster ended badly (${code}):\n${output}`);
    },
  };
}

/**
 * The platform as `npm start` runs it (built, one process, in-process transport, the built web
 * app), on a port the system picks: the browser tests drive exactly what a user gets.
 */
export async function startApp(extraEnv: Record<string, string> = {}): Promise<RunningApp> {
  if (process.env['E2E_PLATFORM'] === 'cluster') return startCluster(extraEnv);
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the workspace first`);
  const dataDir = mkdtempSync(join(tmpdir(), 'debate-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: workspaceRoot,
    env: {
      ...process.env,
      PORT: '0', // the system picks a free port; the platform prints its URL
      HOST: '127.0.0.1',
      // A store of its own: a free port and a fresh directory, whatever else runs here.
      MONGO_PORT: '0',
      DATA_DIR: dataDir,
      OPS_PORT: '0',
      ...testSettings,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The platform did not start:\n${output}`)),
      30_000,
    );
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const ready = /is ready at (http:\/\/\S+)/.exec(output);
      if (ready?.[1]) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The platform exited (${code}):\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) {
        rmSync(dataDir, { recursive: true, force: true });
        return;
      }
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
