// The platform as `npm run start:cluster` runs it, for the browser tests with E2E_PLATFORM=cluster
// (web/e2e/support/platform.ts starts one per test file): each service, the gateway and the
// embedded issuer a process of its own over NATS, on a broker of this run's own on a free port,
// each deployable its own NATS user with its subject permissions (scripts/nats-broker.mjs, as
// the load run does; never the plain broker CI keeps on 4222). Free ports and a fresh temporary
// directory for everything, whatever else runs here.
//
// Prints `The cluster is ready at <url>` once the gateway and the five services report ready,
// then runs until SIGTERM, SIGINT or the end of its stdin (the test process gone, however it
// ended), and stops the cluster, then the broker. It exits 1 when the cluster could not start or
// stopped unasked, 2 when the broker logged a violation (each one is also printed as it happens,
// `Broker: … Publish Violation - User "…", Subject "…"`): a deployable tried a subject its user
// may not use. Its environment goes to start-cluster.mjs (the test's settings), minus what would
// point the cluster at something outside it.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsServerArgs, writeNatsAuthorization } from './nats-broker.mjs';
import { eachLine, freePort, groupAlive, hasCommand, isListening, root } from './workspace.mjs';

// What nats-server logs when it refuses a user: "Publish Violation - User …, Subject …",
// "Subscription Violation - …", "Authorization Violation" (and clients' "Permissions Violation").
const VIOLATION = /violation/i;
const work = mkdtempSync(join(tmpdir(), 'debate-e2e-cluster-'));
const brokerLogPath = join(work, 'nats-server.log');
const clusterLogPath = join(work, 'cluster.log');
const brokerLog = createWriteStream(brokerLogPath);
const clusterLog = createWriteStream(clusterLogPath);
const violations = [];

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const exited = (child) => !child || child.exitCode !== null || child.signalCode !== null;
function say(line) {
  process.stdout.write(`${line}\n`);
}

// ---------------------------------------------------------------------------------------------
// Stopping, however the run ends: start-cluster (its own process group) with SIGTERM, then
// whatever of its group is left, then the broker.
let nats;
let cluster;
let stopping;
async function waitUntil(done, ms) {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await delay(100);
  return done();
}
function stopAll() {
  stopping ??= (async () => {
    if (cluster) {
      if (!exited(cluster)) cluster.kill('SIGTERM');
      await waitUntil(() => exited(cluster) && !groupAlive(cluster.pid), 20_000);
      for (const signal of ['SIGTERM', 'SIGKILL']) {
        if (!groupAlive(cluster.pid)) break;
        try {
          process.kill(-cluster.pid, signal);
        } catch {
          break;
        }
        await waitUntil(() => !groupAlive(cluster.pid), 5_000);
      }
    }
    if (nats && !exited(nats)) {
      nats.kill('SIGTERM');
      if (!(await waitUntil(() => exited(nats), 10_000))) nats.kill('SIGKILL');
      await waitUntil(() => exited(nats), 5_000);
    }
    await Promise.all([brokerLog, clusterLog].map((log) => new Promise((r) => log.end(r))));
  })();
  return stopping;
}
async function finish(code, message) {
  await stopAll();
  if (message) process.stderr.write(`${message}\n`);
  if (violations.length > 0) {
    process.stderr.write(
      `The broker logged ${violations.length} permission violation(s):\n${violations.join('\n')}\n`,
    );
  }
  const status = code || (violations.length > 0 ? 2 : 0);
  if (status === 0) rmSync(work, { recursive: true, force: true });
  else process.stderr.write(`The broker's and the cluster's logs are kept in ${work}\n`);
  process.exit(status);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void finish(0));
// The end of stdin: the test process closed it, or is gone.
process.stdin.on('end', () => void finish(0));
process.stdin.resume();

// ---------------------------------------------------------------------------------------------
// Free ports: the broker, the store, the gateway, and six operations ports in a row
// (start-cluster gives the gateway OPS_PORT and the five services the next ones).
function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
async function freePortRange(length) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    // Below the kernel's ephemeral range (32768 and up), where outgoing connections take theirs.
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const ports = Array.from({ length }, (_, i) => base + i);
    if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) return base;
  }
  throw new Error(`found no ${length} free ports in a row`);
}

async function start() {
  if (!hasCommand('nats-server')) {
    throw new Error('nats-server is not installed (Debian: apt-get install -y nats-server)');
  }
  const opsPort = await freePortRange(6);
  const ports = new Set(Array.from({ length: 6 }, (_, i) => opsPort + i));
  const another = async () => {
    for (;;) {
      const port = await freePort();
      if (!ports.has(port)) {
        ports.add(port);
        return port;
      }
    }
  };
  const natsPort = await another();
  const mongoPort = await another();
  const gatewayPort = await another();

  // The broker: each deployable its own user and permissions, as start-cluster's own broker.
  const store = join(work, 'nats');
  mkdirSync(store);
  const natsAuth = await writeNatsAuthorization(join(work, 'nats-auth'));
  nats = spawn(
    'nats-server',
    natsServerArgs({ port: natsPort, store, configFile: natsAuth.configFile }),
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  for (const stream of [nats.stdout, nats.stderr]) {
    eachLine(stream, (line) => {
      brokerLog.write(`${line}\n`);
      if (VIOLATION.test(line)) {
        violations.push(line);
        say(`Broker: ${line}`);
      }
    });
  }
  const natsDeadline = Date.now() + 10_000;
  while (!(await isListening(natsPort))) {
    if (exited(nats) || Date.now() > natsDeadline) throw new Error('nats-server did not start');
    await delay(100);
  }

  // The cluster: this run's store, the embedded issuer, no provider key (the offline speaker).
  const outside = /^(MONGO_URL|NATS_\w+|KEYCLOAK_\w+|AUTH_ISSUER_URL|AUTH_JWKS_URL|OPENAI_\w+)$/;
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !outside.test(name)),
  );
  Object.assign(env, {
    NATS_URL: `nats://127.0.0.1:${natsPort}`,
    NATS_PASSWORDS_FILE: natsAuth.passwordsFile,
    DATA_DIR: join(work, 'data'),
    MONGO_PORT: String(mongoPort),
    ISSUER_PORT: '0',
    PORT: String(gatewayPort),
    HOST: '127.0.0.1',
    OPS_PORT: String(opsPort),
    OPS_HOST: '127.0.0.1',
    // No local model unless the test asks (it would fetch 1.1 GB): the offline speaker.
    LOCAL_MODEL: process.env.LOCAL_MODEL || 'off',
  });
  // What the test run has built (web:e2e-cluster depends on the builds): no build per cluster.
  const args = ['scripts/start-cluster.mjs', '--embedded-issuer', '--no-build'];
  cluster = spawn(process.execPath, args, {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let processesStarted = 0;
  for (const stream of [cluster.stdout, cluster.stderr]) {
    eachLine(stream, (line) => {
      clusterLog.write(`${line}\n`);
      if (line.startsWith('Cluster on')) processesStarted = Date.now();
    });
  }
  cluster.once('exit', (code, signal) => {
    if (stopping) return;
    const tail = readFileSync(clusterLogPath, 'utf8').trimEnd().split('\n').slice(-30);
    void finish(
      1,
      `start-cluster.mjs exited (${signal ?? code}) unasked; its last lines:\n${tail.join('\n')}`,
    );
  });

  // The processes have a minute to answer once start-cluster has started them.
  const { serviceNames } = await import('@debate/contracts');
  const deployables = ['gateway', ...serviceNames];
  const since = Date.now();
  let last = '';
  for (;;) {
    if (exited(cluster)) throw new Error('start-cluster.mjs exited while starting');
    if (processesStarted && Date.now() - processesStarted > 60_000) {
      throw new Error(`the cluster did not come up within 60 s: ${last}`);
    }
    if (Date.now() - since > 120_000) throw new Error('start-cluster started nothing in 2 min');
    if (processesStarted) {
      const states = await Promise.all(
        deployables.map(async (name, i) => {
          const ready = await fetch(`http://127.0.0.1:${opsPort + i}/health/ready`, {
            signal: AbortSignal.timeout(2_000),
          }).then(
            (response) => response.ok,
            () => false,
          );
          return ready ? undefined : name;
        }),
      );
      last = `not ready: ${states.filter(Boolean).join(', ')}`;
      if (states.every((state) => state === undefined)) break;
    }
    await delay(250);
  }
  say(
    `The cluster is ready at http://127.0.0.1:${gatewayPort} (${((Date.now() - since) / 1000).toFixed(1)} s; ` +
      `NATS with permissions on ${env.NATS_URL}; logs in ${work})`,
  );
}

start().catch((error) => void finish(1, error instanceof Error ? error.message : String(error)));
