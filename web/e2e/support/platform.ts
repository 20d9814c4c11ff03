import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const workspaceRoot = fileURLToPath(new URL('../../../', import.meta.url));
const entry = fileURLToPath(new URL('../../../libs/platform/dist/main.js', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object'
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface RunningApp {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * The platform as `npm start` runs it (built, one process, in-process transport, the built web
 * app), on a free port: the browser tests drive exactly what a user gets.
 */
export async function startApp(): Promise<RunningApp> {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build the workspace first`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'debate-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd: workspaceRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // A store of its own: a free port and a fresh directory, whatever else runs here.
      MONGO_PORT: '0',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The platform did not start:\n${output}`)),
      30_000,
    );
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('is ready at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The platform exited (${code}):\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
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
