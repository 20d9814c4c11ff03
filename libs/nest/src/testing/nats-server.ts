import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsClusterSettings } from '@debate/contracts';

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

/** A nats-server process: started on `args`, ready once it accepts connections on `port`. */
class NatsProcess {
  private child: ChildProcess | undefined;

  constructor(
    private readonly args: readonly string[],
    private readonly port: number,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const binary = process.env['NATS_SERVER_BIN'] ?? 'nats-server';
    const child = spawn(binary, this.args, { stdio: 'ignore' });
    this.child = child;
    const failed = new Promise<never>((_, reject) => {
      child.once('error', (error) =>
        reject(
          new Error(`Cannot start ${binary} (install Debian's nats-server): ${error.message}`),
        ),
      );
    });
    await Promise.race([waitForPort(this.port), failed]);
  }

  /** Stops it with `signal` (SIGKILL: as a crash, its sockets closed by the kernel). */
  async halt(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
}

/**
 * A real nats-server (from PATH, JetStream on) on a free loopback port, with its own store,
 * for tests that must cross the real protocol. Set NATS_SERVER_BIN to use another binary.
 */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<RunningNats> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'debate-nats-'));
  const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  if (options.config !== undefined) {
    const file = join(storeDir, 'nats-server.conf');
    writeFileSync(file, options.config, { mode: 0o600 });
    args.unshift('-c', file);
  }
  const server = new NatsProcess(args, port);
  await server.start();
  return {
    url: `nats://127.0.0.1:${port}`,
    get pid() {
      return server.pid;
    },
    restart: async () => {
      await server.halt();
      await server.start();
    },
    stop: async () => {
      await server.halt();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** One server of a RunningNatsCluster. */
export interface ClusterServer {
  /** Its server_name (`n1`, `n2`, …). */
  readonly name: string;
  readonly url: string;
  /** Its monitoring endpoint (`/healthz`, `/connz`, `/jsz`). */
  readonly monitorUrl: string;
  /** Its process's id while it runs (a benchmark reads its CPU and memory in /proc). */
  readonly pid: number | undefined;
  /** Ends it at once with SIGKILL, as a crash would: no goodbye to its clients or routes. */
  kill(): Promise<void>;
  /** Starts it again on its ports and store; resolves once it is healthy (healthy()). */
  start(): Promise<void>;
  /** Whether its /healthz answers ok: it is in the cluster and JetStream is current. */
  healthy(): Promise<boolean>;
}

export interface RunningNatsCluster {
  /** Every server's URL, comma-separated, as NATS_URL takes them. */
  readonly url: string;
  readonly servers: readonly ClusterServer[];
  stop(): Promise<void>;
}

/** Resolves once `check` does, or rejects after `timeoutMs` with `what`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Three (or `size`) real nats-servers clustered as production runs them (natsClusterSettings:
 * named, routed to one another, JetStream on each with a store of its own), on free loopback
 * ports, `options.config` added to each. Resolves once every server is healthy, JetStream's
 * meta group included, so a stream with 3 replicas can be made at once.
 */
export async function startNatsCluster(
  options: NatsServerOptions & { readonly size?: number } = {},
): Promise<RunningNatsCluster> {
  const size = options.size ?? 3;
  const ports = await Promise.all(
    Array.from({ length: size }, async () => ({
      client: await freePort(),
      route: await freePort(),
      monitor: await freePort(),
    })),
  );
  const routes = ports.map(({ route }) => `nats-route://127.0.0.1:${route}`);
  const members = ports.map((port, i) => {
    const name = `n${i + 1}`;
    const storeDir = mkdtempSync(join(tmpdir(), `debate-nats-${name}-`));
    const file = join(storeDir, 'nats-server.conf');
    const config = [
      natsClusterSettings({ serverName: name, listen: `127.0.0.1:${port.route}`, routes }),
      `jetstream { store_dir: "${storeDir}" }`,
      options.config ?? '',
    ].join('\n');
    writeFileSync(file, config, { mode: 0o600 });
    const args = [
      '-c',
      file,
      '-a',
      '127.0.0.1',
      '-p',
      String(port.client),
      '-m',
      String(port.monitor),
    ];
    return { name, port, storeDir, process: new NatsProcess(args, port.client) };
  });
  const servers: ClusterServer[] = members.map((member) => {
    const monitorUrl = `http://127.0.0.1:${member.port.monitor}`;
    const healthy = async () => {
      try {
        return (await fetch(`${monitorUrl}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok;
      } catch {
        return false;
      }
    };
    return {
      name: member.name,
      url: `nats://127.0.0.1:${member.port.client}`,
      monitorUrl,
      get pid() {
        return member.process.pid;
      },
      kill: () => member.process.halt('SIGKILL'),
      start: async () => {
        await member.process.start();
        await until(healthy, `nats-server ${member.name} not healthy`);
      },
      healthy,
    };
  });
  const stop = async () => {
    await Promise.all(members.map((member) => member.process.halt()));
    for (const member of members) rmSync(member.storeDir, { recursive: true, force: true });
  };
  try {
    // All at once: a server's JetStream waits for the others' routes before it is healthy.
    await Promise.all(members.map((member) => member.process.start()));
    for (const server of servers)
      await until(server.healthy, `nats-server ${server.name} not healthy`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: servers.map((server) => server.url).join(','), servers, stop };
}
