// npm run load / npm run load:smoke: every k6 scenario in deploy/k6, with real k6, against the
// platform started as separate processes over NATS (scripts/start-cluster.mjs).
//
//   node scripts/load.mjs                 each scenario at its full size (its own defaults)
//   node scripts/load.mjs --smoke         each at its smoke size (-e SIZE=smoke), as CI runs them
//   node scripts/load.mjs --only sign-in,voting-storm     only these scenarios
//   node scripts/load.mjs -e VUS=5        a k6 variable (-e) for every scenario
//   node scripts/load.mjs --smoke -- --keycloak           what follows -- goes to start-cluster.mjs
// (Through npm the `--` is npm's own: `npm run load:smoke -- --keycloak`. Any argument this
// script does not know is passed on to start-cluster.mjs as well.)
//
// The platform is isolated from anything already running: its own nats-server on a free port
// with its store in a fresh temporary directory, the embedded MongoDB-compatible store there
// too, and free ports for the store, the embedded issuer (or Keycloak), the gateway and the
// operations ports. It runs on the embedded defaults whatever this shell says: MONGO_URL,
// KEYCLOAK_*, AUTH_ISSUER_URL, AUTH_JWKS_URL and OPENAI_* are left out of its environment, so
// sign-in is a Keycloak of this run's own (where a JDK 21+ and the cached distribution are at
// hand, as start-cluster decides) or the embedded issuer, and the offline speaker writes every
// debate (a load test never spends provider money). Each scenario runs with its own thresholds; one that
// breaches them (k6 exits 99) or fails otherwise fails this run, which names it, after the other
// scenarios have run. The cluster and the nats-server are stopped at the end, whatever happened.
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureK6 } from './k6.mjs';
import {
  delay,
  exited,
  isolatedEnv,
  K6_RUN,
  portAllocator,
  stopGroup,
  waitForExit,
} from './load-common.mjs';
import { natsServerArgs, writeNatsAuthorization } from './nats-broker.mjs';
import {
  buildAll,
  ensureInstalled,
  groupAlive,
  hasCommand,
  isListening,
  root,
} from './workspace.mjs';

/** The order that makes the most of one store: the debates generate-debates shares are there
 * to browse and to vote on (voting-storm shares what it lacks itself). Others follow by name. */
const ORDER = ['sign-in', 'generate-debates', 'browse-community', 'voting-storm'];
const SCENARIO_DIR = join(root, 'deploy', 'k6');

// ---------------------------------------------------------------------------------------------
// Arguments
const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const clusterArgs = dashes === -1 ? [] : args.slice(dashes + 1);
const k6Env = [];
let smoke = false;
let only;
const own = dashes === -1 ? args : args.slice(0, dashes);
for (let i = 0; i < own.length; i += 1) {
  const arg = own[i];
  if (arg === '--smoke') smoke = true;
  else if (arg === '--only') only = own[(i += 1)];
  else if (arg.startsWith('--only=')) only = arg.slice('--only='.length);
  else if (arg === '-e' || arg === '--env') k6Env.push(own[(i += 1)]);
  else if (arg === '--help' || arg === '-h') {
    process.stdout.write(
      readFileSync(new URL(import.meta.url), 'utf8').split('\nimport ')[0] + '\n',
    );
    process.exit(0);
  } else clusterArgs.push(arg);
}
for (const variable of k6Env) {
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(variable ?? ''))
    fail(`-e takes NAME=VALUE, not ${variable}`);
}

const available = readdirSync(SCENARIO_DIR)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -'.ts'.length))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
function rank(name) {
  const at = ORDER.indexOf(name);
  return at === -1 ? ORDER.length : at;
}
const scenarios = only ? only.split(',').map((name) => name.replace(/\.ts$/, '')) : available;
for (const name of scenarios) {
  if (!available.includes(name)) fail(`No scenario ${name} in deploy/k6 (${available.join(', ')})`);
}

function fail(message) {
  process.stderr.write(`load: ${message}\n`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Tools: k6 (built with Go when missing) and nats-server, before anything starts.
const k6 = ensureK6();
if (!hasCommand('nats-server')) {
  fail('nats-server is not installed: install it (Debian: apt-get install -y nats-server).');
}

// ---------------------------------------------------------------------------------------------
// Free ports, all different: the broker, the store, the issuer, the gateway, and six operations
// ports in a row (start-cluster gives the gateway OPS_PORT and the five services the next ones).
const { freePort, freePortRange } = portAllocator();
const opsPort = await freePortRange(6).catch((error) => fail(error.message));
const natsPort = await freePort();
const mongoPort = await freePort();
const issuerPort = await freePort();
const gatewayPort = await freePort();
// Used only when start-cluster runs the real Keycloak (`-- --keycloak`).
const keycloakPort = await freePort();
const keycloakManagementPort = await freePort();

const work = mkdtempSync(join(tmpdir(), 'debate-load-'));
const logPath = join(work, 'cluster.log');
const log = createWriteStream(logPath);
const baseUrl = `http://127.0.0.1:${gatewayPort}`;
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------
// Stopping: the cluster first (SIGTERM to start-cluster, which stops the services and the
// gateway, then its store), then whatever of its process group is left, then the broker.
let nats;
let cluster;
let stopping;
let k6Run;
/** Why the cluster is gone, when it stopped without being asked to (a crash, or a signal). */
let clusterLost;
let current = 'starting';
function stopAll() {
  stopping ??= (async () => {
    if (k6Run && !exited(k6Run)) await waitForExit(k6Run, 30_000);
    if (cluster) {
      const since = Date.now();
      if (!exited(cluster)) {
        process.stdout.write(`load: stopping the cluster (SIGTERM to ${cluster.pid})\n`);
        cluster.kill('SIGTERM');
        await waitForExit(cluster, 20_000);
      }
      // start-cluster exits once it has signalled its store: wait for that too.
      const deadline = Date.now() + 10_000;
      while (groupAlive(cluster.pid) && Date.now() < deadline) await delay(100);
      await stopGroup(cluster.pid, 5_000, (line) => process.stdout.write(`load: ${line}\n`));
      process.stdout.write(`load: the cluster stopped in ${seconds(since)}\n`);
    }
    if (nats && !exited(nats)) {
      nats.kill('SIGTERM');
      if (!(await waitForExit(nats, 10_000))) nats.kill('SIGKILL');
    }
    await new Promise((resolve) => log.end(resolve));
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    process.stderr.write(`load: ${signal}: stopping\n`);
    // k6 stops on SIGINT (at a terminal it has had the Ctrl-C already); the cluster is stopped
    // once it has.
    if (k6Run && !exited(k6Run)) k6Run.kill('SIGINT');
    void stopAll().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

// ---------------------------------------------------------------------------------------------
// Starting: the broker, then the cluster, then waiting until every service is up.
async function startPlatform() {
  // The broker's users and permissions come from the built contracts: install and build first
  // (start-cluster's own build is then Nx's cache).
  ensureInstalled();
  buildAll();
  const store = join(work, 'nats');
  mkdirSync(store);
  // Each deployable its own NATS user and permissions, as start-cluster runs its own broker.
  const natsAuth = await writeNatsAuthorization(join(work, 'nats-auth'));
  nats = spawn(
    'nats-server',
    natsServerArgs({ port: natsPort, store, configFile: natsAuth.configFile }),
    // Its own process group: a Ctrl-C at the terminal must not take it away from the services
    // while they drain; it stops last.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  for (const stream of [nats.stdout, nats.stderr]) stream.on('data', (chunk) => log.write(chunk));
  const natsDeadline = Date.now() + 10_000;
  while (!(await isListening(natsPort))) {
    if (exited(nats) || Date.now() > natsDeadline) throw new Error('nats-server did not start');
    await delay(100);
  }

  // This run's own store, never a database of someone's; its own Keycloak or the embedded
  // issuer, never a Keycloak this shell points at; never a provider's key: the offline speaker
  // writes.
  const { env, leftOut } = isolatedEnv();
  if (leftOut.length > 0) {
    process.stdout.write(`load: left out of the cluster's environment: ${leftOut.join(', ')}\n`);
  }
  Object.assign(env, {
    // The scenarios sign up a fresh account per debate from this one address: the cluster is
    // the load test's own, so the gateway's rate limits are off (docs/load-testing.md).
    RATE_LIMITS: 'off',
    // The offline speaker writes every debate: no local model (it would fetch 1.1 GB).
    LOCAL_MODEL: 'off',
    NATS_URL: `nats://127.0.0.1:${natsPort}`,
    NATS_PASSWORDS_FILE: natsAuth.passwordsFile,
    DATA_DIR: join(work, 'data'),
    MONGO_PORT: String(mongoPort),
    ISSUER_PORT: String(issuerPort),
    KEYCLOAK_PORT: String(keycloakPort),
    KEYCLOAK_MANAGEMENT_PORT: String(keycloakManagementPort),
    PORT: String(gatewayPort),
    HOST: '127.0.0.1',
    OPS_PORT: String(opsPort),
    OPS_HOST: '127.0.0.1',
  });
  // Sign-in as start-cluster chooses: the real Keycloak where a JDK 21+ and its cached
  // distribution are at hand (as in CI, after the Keycloak tier), the embedded issuer otherwise;
  // --keycloak or --embedded-issuer, passed on, decide.
  const command = ['scripts/start-cluster.mjs', ...clusterArgs];
  process.stdout.write(
    `load: node ${command.join(' ')}  (NATS ${env.NATS_URL}, store port ${mongoPort}, ` +
      `Keycloak port ${keycloakPort} or issuer port ${issuerPort}, ` +
      `gateway ${baseUrl}, operations ports ${opsPort}-${opsPort + 5}; ` +
      `data and logs in ${work})\n`,
  );
  // A process group of its own: whatever it leaves behind can be stopped with it.
  cluster = spawn(process.execPath, command, {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cluster.once('exit', (code, signal) => {
    if (stopping) return;
    clusterLost = `start-cluster.mjs exited (${signal ?? code}) during ${current}, unasked`;
    process.stderr.write(`load: ${clusterLost}\n`);
    if (k6Run && !exited(k6Run)) k6Run.kill('SIGINT');
  });
  let processesStarted = 0;
  for (const stream of [cluster.stdout, cluster.stderr]) {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      log.write(chunk);
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        // start-cluster's own lines (not each process's log): what started, what exited.
        if (
          /^(Cluster on|Installing|Starting Keycloak|\s+\w+\s+pid \d+|\[\w+\] (exited|stopped))/.test(
            line,
          )
        ) {
          process.stdout.write(`  ${line.trim()}\n`);
        }
        if (line.startsWith('Cluster on')) processesStarted = Date.now();
      }
    });
  }

  // start-cluster installs and builds first (from Nx's cache: this script has just built); then
  // the processes have a minute and a half to answer.
  const since = Date.now();
  let last = '';
  for (;;) {
    if (exited(cluster))
      throw new Error(`start-cluster.mjs exited (${cluster.exitCode ?? cluster.signalCode})`);
    if (processesStarted && Date.now() - processesStarted > 90_000) {
      throw new Error(`the services did not all come up within 90 s: ${last}`);
    }
    if (Date.now() - since > 15 * 60_000)
      throw new Error('start-cluster.mjs did not start the cluster within 15 min');
    if (processesStarted) {
      last = await health();
      if (last === 'up') break;
    }
    await delay(250);
  }
  process.stdout.write(
    `load: every service is up, ${seconds(since)} after starting ` +
      `(${((processesStarted - since) / 1000).toFixed(1)} s to install, build and start them)\n`,
  );
}

/**
 * 'up' when the gateway and the five services report ready on their operations ports
 * (start-cluster gives the gateway OPS_PORT and the services the five ports after it).
 */
async function health() {
  const { serviceNames } = await import('@debate/contracts');
  const deployables = ['gateway', ...serviceNames];
  const states = await Promise.all(
    deployables.map(async (name, i) => {
      try {
        const response = await fetch(`http://127.0.0.1:${opsPort + i}/health/ready`, {
          signal: AbortSignal.timeout(2_000),
        });
        return response.ok ? undefined : `${name} not ready (${response.status})`;
      } catch (error) {
        return `${name} does not answer (${error.cause?.code ?? error.message})`;
      }
    }),
  );
  const problems = states.filter(Boolean);
  return problems.length === 0 ? 'up' : problems.join(', ');
}

// ---------------------------------------------------------------------------------------------
// One scenario: k6 run, its summary on the console, its figures for the table at the end.
function runScenario(name) {
  const summary = join(work, `${name}.summary.json`);
  const k6Args = [
    ...K6_RUN,
    '-e',
    `BASE_URL=${baseUrl}`,
    ...(smoke ? ['-e', 'SIZE=smoke'] : []),
    ...k6Env.flatMap((variable) => ['-e', variable]),
    '--summary-export',
    summary,
    join('deploy', 'k6', `${name}.ts`),
  ];
  process.stdout.write(`\nload: ${name}: k6 ${k6Args.join(' ')}\n`);
  const since = Date.now();
  return new Promise((resolve) => {
    const child = spawn(k6, k6Args, { cwd: root, stdio: 'inherit' });
    k6Run = child;
    child.once('error', (error) => resolve({ name, code: -1, error: error.message }));
    child.once('exit', (code, signal) => {
      const result = { name, code: code ?? -1, signal, time: seconds(since) };
      if (existsSync(summary)) result.summary = JSON.parse(readFileSync(summary, 'utf8'));
      resolve(result);
    });
  });
}

/** One line of the table: the checks, the scenario's p(95), and the thresholds it breached. */
function describe(result) {
  const metrics = result.summary?.metrics ?? {};
  const checks = metrics.checks;
  const p95 = Object.entries(metrics).find(([key]) =>
    key.startsWith('http_req_duration{scenario:'),
  );
  const breached = Object.entries(metrics).flatMap(([key, metric]) =>
    Object.entries(metric.thresholds ?? {})
      .filter(([, crossed]) => crossed)
      .map(([threshold]) => `${key} ${threshold}`),
  );
  const outcome =
    result.code === 0
      ? 'passed'
      : result.code === 99
        ? 'THRESHOLDS BREACHED'
        : `FAILED (k6 exit ${result.signal ?? result.code}${result.error ? `: ${result.error}` : ''})`;
  return [
    result.name.padEnd(18),
    outcome.padEnd(20),
    (result.time ?? '').padStart(7),
    checks ? `checks ${checks.passes}/${checks.passes + checks.fails}` : '',
    p95 ? `p(95) ${p95[1]['p(95)'].toFixed(1)} ms` : '',
    `${metrics.iterations?.count ?? 0} iterations`,
    breached.length > 0 ? `breached: ${breached.join('; ')}` : '',
    result.after ? `AFTERWARDS the platform is not well: ${result.after}` : '',
  ]
    .filter(Boolean)
    .join('  ');
}

// ---------------------------------------------------------------------------------------------
const results = [];
let failure;
try {
  process.stdout.write(
    `load: ${scenarios.length} scenario(s) at ${smoke ? 'smoke' : 'full'} size: ${scenarios.join(', ')}\n`,
  );
  await startPlatform();
  for (const name of scenarios) {
    current = name;
    const result = await runScenario(name);
    results.push(result);
    if (stopping || clusterLost) break;
    // A scenario that leaves a service down fails, whatever its thresholds said.
    const state = await health();
    if (state !== 'up') result.after = state;
  }
} catch (error) {
  failure = error instanceof Error ? error.message : String(error);
} finally {
  await stopAll();
}

process.stdout.write(
  `\nload: ${smoke ? 'smoke' : 'full'} run against ${baseUrl}, ${seconds(started)} in all\n`,
);
for (const result of results) process.stdout.write(`  ${describe(result)}\n`);
const failed = results
  .filter((result) => result.code !== 0 || result.after)
  .map((result) => result.name);
failure ??= clusterLost;
if (failure || failed.length > 0) {
  if (failure) {
    process.stderr.write(`\nload: ${failure}\n`);
    const tail = readFileSync(logPath, 'utf8').trimEnd().split('\n').slice(-30).join('\n');
    process.stderr.write(`The cluster's last lines (all of them in ${logPath}):\n${tail}\n`);
  }
  if (failed.length > 0) process.stderr.write(`\nload: failed: ${failed.join(', ')}\n`);
  process.stderr.write(
    `load: the store, the broker's data and the cluster's log are kept in ${work}\n`,
  );
  process.exit(1);
}
rmSync(work, { recursive: true, force: true });
process.stdout.write('load: every scenario passed its thresholds\n');
