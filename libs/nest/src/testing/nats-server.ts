import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/** Resolves once something accepts TCP connections on host:port, or rejects after `timeoutMs`. */
export async function waitForPort(
  port: number,
  host = '127.0.0.1',
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline)
      throw new Error(`Nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface RunningNats {
  readonly url: string;
  /** The server's process id (a new one after a restart). */
  readonly pid: number | undefined;
  /** Stops the server (as a crash or an upgrade would) and starts it again on the same port and store. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface NatsServerOptions {
  /**
   * Configuration added to the server's (an `authorization` block, e.g. natsAuthorization's):
   * written to a file in its store directory and read with `-c`.
   */
  readonly config?: string;
}

/**
 * A real nats-server (from PATH, JetStream on) on a free loopback port, with its own store,
 * for tests that must cross the real protocol. Set NATS_SERVER_BIN to use another binary.
 */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<RunningNats> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'debate-nats-'));
  const binary = process.env['NATS_SERVER_BIN'] ?? 'nats-server';
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  if (options.config !== undefined) {
    const file = join(storeDir, 'nats-server.conf');
    writeFileSync(file, options.config, { mode: 0o600 });
    args.unshift('-c', file);
  }
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(binary, args, { stdio: 'ignore' });
    const failed = new Promise<never>((_, reject) => {
      child.once('error', (error) =>
        reject(
          new Error(`Cannot start ${binary} (install Debian's nats-server): ${error.message}`),
        ),
      );
    });
    await Promise.race([waitForPort(port), failed]);
    return child;
  };
  const halt = async (child: ChildProcess) => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  let child = await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    get pid() {
      return child.pid;
    },
    restart: async () => {
      await halt(child);
      child = await launch();
    },
    stop: async () => {
      await halt(child);
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
