// npm run load:faults / load:faults:smoke: the k6 scenarios (sign-in, generate-debates,
// voting-storm, browse-community) together at a steady rate against the platform with two of
// everything (scripts/start-cluster.mjs --replicas 2), while this script kills (SIGKILL) one
// nats-server, then one instance of each service, then one gateway, each started again by
// start-cluster's supervisor after 2 s. Afterwards it reconciles what k6 saw acknowledged against
// the stores, and prints per fault: the error window, the requests failed, the acknowledged
// writes lost (must be 0) and the time until the p95 is back within 1.5x of before the fault.
//
//   node scripts/load-faults.mjs            full size (docs/load-testing.md#the-fault-run)
//   node scripts/load-faults.mjs --smoke    smoke size, as CI runs it
//   node scripts/load-faults.mjs --keep     keeps the run's directory (k6's records, the logs,
//                                           the store) even when it passes
//
// It exits non-zero when an acknowledged write is lost, the stores are inconsistent (tallies,
// rankings, leaderboard), a killed process does not come back ready, or k6 records nothing.
// The platform is isolated as scripts/load.mjs isolates it (a temporary directory, free ports,
// its own store, issuer and nats-servers, the offline speaker, rate limits off), and stopped at
// the end whatever happened; a failed run keeps its directory (logs, k6's records) and says where.
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureK6 } from './k6.mjs';
import { faultFigures, parseConsole } from './load-faults/figures.mjs';
import { reconcile } from './load-faults/reconcile.mjs';
import {
  delay,
  exited,
  isolatedEnv,
  K6_RUN,
  portAllocator,
  stopGroup,
  waitForExit,
} from './load-common.mjs';
import { buildAll, ensureInstalled, groupAlive, hasCommand, root } from './workspace.mjs';

const smoke = process.argv.includes('--smoke');
const keep = process.argv.includes('--keep');
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(readFileSync(new URL(import.meta.url), 'utf8').split('\nimport ')[0] + '\n');
  process.exit(0);
}
const unknown = process.argv.slice(2).filter((arg) => arg !== '--smoke' && arg !== '--keep');
if (unknown.length > 0) fail(`unknown argument(s): ${unknown.join(' ')} (--smoke, --keep, --help)`);

/**
 * The sizes. Each scenario's steady rate (iterations a second); the quiet time before the first
 * fault; the least time from one kill to the next, and from a process being back to the next
 * kill (the next fault's "before"); the rolling p95's window. Sign-in's iteration is 3 requests
 * (two argon2id hashes), a debate's is a run of about 20 s, a storm's is one vote or star.
 */
const SIZES = {
  full: {
    rates: { 'sign-in': 2, 'generate-debates': 0.5, 'browse-community': 20, 'voting-storm': 40 },
    beforeMs: 30_000,
    periodMs: 45_000,
    windowMs: 5_000,
  },
  smoke: {
    rates: { 'sign-in': 1, 'generate-debates': 0.25, 'browse-community': 5, 'voting-storm': 15 },
    beforeMs: 10_000,
    periodMs: 15_000,
    windowMs: 5_000,
  },
};
const size = SIZES[smoke ? 'smoke' : 'full'];
/** The p95 is back once within this factor of the p95 before the fault, for `HOLD_MS`. */
const FACTOR = 1.5;
const HOLD_MS = size.windowMs;
/** How long a killed process has to be started again and be ready. */
const BACK_WITHIN_MS = 90_000;
/** How long the stores have to settle (the outbox, the community's consumer, the leaderboard). */
const SETTLE_MS = 60_000;
const SCENARIOS = Object.keys(size.rates);
/** The operations that tell a scenario's steady load has begun (its setup is over). */
const STEADY_OPS = { 'voting-storm': new Set(['me', 'vote', 'toggleStar']) };

function say(line) {
  process.stdout.write(`load:faults: ${line}\n`);
}
function fail(message) {
  process.stderr.write(`load:faults: ${message}\n`);
  process.exit(1);
}
const seconds = (ms) => (ms / 1000).toFixed(1);

const k6 = ensureK6();
if (!hasCommand('nats-server')) {
  fail('nats-server is not installed: install it (Debian: apt-get install -y nats-server).');
}

// ---------------------------------------------------------------------------------------------
// Ports: three nats-servers' client ports in a row, the entry, the store and the issuer, and the
// operations ports (start-cluster numbers them from OPS_PORT: a row for every instance). All
// below the kernel's ephemeral range: start-cluster asks the kernel for the nats-servers' route
// and monitoring ports and the gateways', which may hand out any port this script has only
// looked at in that range.
const { freePortRange } = portAllocator();
const inRow = (length) => freePortRange(length).catch((error) => fail(error.message));
const natsPort = await inRow(3);
const opsPort = await inRow(16);
const entryPort = await inRow(3);
const mongoPort = entryPort + 1;
const issuerPort = entryPort + 2;

const work = mkdtempSync(join(tmpdir(), 'debate-load-faults-'));
const dataDir = join(work, 'data');
const logPath = join(work, 'cluster.log');
const log = createWriteStream(logPath);
const started = Date.now();

// ---------------------------------------------------------------------------------------------
// Stopping: k6 (SIGINT: it ends its iterations), then the cluster (SIGTERM to start-cluster,
// then what is left of its process group).
let cluster;
const k6Runs = new Map();
let stopping;
let clusterLost;
function stopK6() {
  return Promise.all(
    [...k6Runs.values()].map(async ({ child }) => {
      if (exited(child)) return;
      child.kill('SIGINT');
      if (!(await waitForExit(child, 30_000))) child.kill('SIGKILL');
    }),
  );
}
function stopAll() {
  stopping ??= (async () => {
    await stopK6();
    if (cluster) {
      if (!exited(cluster)) {
        say(`stopping the cluster (SIGTERM to ${cluster.pid})`);
        cluster.kill('SIGTERM');
        await waitForExit(cluster, 30_000);
      }
      const deadline = Date.now() + 10_000;
      while (groupAlive(cluster.pid) && Date.now() < deadline) await delay(100);
      await stopGroup(cluster.pid, 5_000, say);
    }
    await new Promise((resolve) => log.end(resolve));
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    process.stderr.write(`load:faults: ${signal}: stopping\n`);
    void stopAll().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

// ---------------------------------------------------------------------------------------------
// The cluster and its processes (DATA_DIR/cluster.json, rewritten whenever one is started again).
function readCluster() {
  try {
    return JSON.parse(readFileSync(join(dataDir, 'cluster.json'), 'utf8'));
  } catch {
    return undefined; // not written yet, or being written
  }
}

/** Whether a process answers ready: a nats-server's /healthz, an instance's /health/ready. */
async function ready(member) {
  const url =
    member.kind === 'nats'
      ? `http://127.0.0.1:${member.monitorPort}/healthz`
      : `http://127.0.0.1:${member.opsPort}/health/ready`;
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

async function startCluster() {
  // start-cluster runs what is built (--no-build): install and build first, from Nx's cache
  // when nothing changed.
  ensureInstalled();
  buildAll();
  const { env, leftOut } = isolatedEnv();
  if (leftOut.length > 0) say(`left out of the cluster's environment: ${leftOut.join(', ')}`);
  delete env.NATS_URL;
  delete env.NATS_PASSWORDS_FILE;
  Object.assign(env, {
    // One address signs up every account (docs/load-testing.md); no model download.
    RATE_LIMITS: 'off',
    LOCAL_MODEL: 'off',
    DATA_DIR: dataDir,
    NATS_PORT: String(natsPort),
    MONGO_PORT: String(mongoPort),
    ISSUER_PORT: String(issuerPort),
    PORT: String(entryPort),
    HOST: '127.0.0.1',
    OPS_PORT: String(opsPort),
    OPS_HOST: '127.0.0.1',
  });
  const command = [
    'scripts/start-cluster.mjs',
    '--replicas',
    '2',
    '--no-build',
    '--embedded-issuer',
  ];
  say(
    `node ${command.join(' ')}  (nats-servers on ${natsPort}-${natsPort + 2}, entry on ${entryPort}, ` +
      `store on ${mongoPort}; data and logs in ${work})`,
  );
  cluster = spawn(process.execPath, command, {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cluster.once('exit', (code, signal) => {
    if (stopping) return;
    clusterLost = `start-cluster.mjs exited (${signal ?? code}), unasked`;
    process.stderr.write(`load:faults: ${clusterLost}\n`);
  });
  for (const stream of [cluster.stdout, cluster.stderr]) {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      log.write(chunk);
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      // start-cluster's own lines about its processes: started, exited, started again.
      for (const line of lines) {
        if (/^(Cluster on|\[[\w-]+\] (exited|started again|stopped))/.test(line)) {
          say(`  ${line.trim()}`);
        }
      }
    });
  }
  const since = Date.now();
  for (;;) {
    if (clusterLost) throw new Error(clusterLost);
    if (Date.now() - since > 5 * 60_000) {
      throw new Error('the cluster was not ready within 5 min');
    }
    const state = readCluster();
    if (state) {
      const answers = await Promise.all(state.processes.map(ready));
      if (answers.every(Boolean)) {
        say(
          `${state.processes.length} processes ready after ${seconds(Date.now() - since)} s ` +
            `(${state.processes.map((p) => p.name).join(', ')})`,
        );
        return state;
      }
    }
    await delay(500);
  }
}

// ---------------------------------------------------------------------------------------------
// k6: each scenario its own k6 at its steady rate; its console (the records) read as it grows.
function startK6(name, entry) {
  const consolePath = join(work, `${name}.console`);
  const args = [
    ...K6_RUN,
    '--log-format',
    'raw',
    '--console-output',
    consolePath,
    '-e',
    `BASE_URL=${entry}`,
    '-e',
    'MODE=steady',
    '-e',
    `RATE=${size.rates[name]}`,
    // Stopped by this script once its last fault has settled.
    '-e',
    'DURATION=60m',
    ...(smoke ? ['-e', 'SIZE=smoke'] : []),
    join('deploy', 'k6', `${name}.ts`),
  ];
  const output = createWriteStream(join(work, `${name}.k6.log`));
  const child = spawn(k6, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(output);
  child.stderr.pipe(output);
  const run = { name, child, consolePath, offset: 0, steadyAt: undefined };
  k6Runs.set(name, run);
  return run;
}

/** When each k6 began its steady load: its first request of the scenario's own. */
function watchSteady(run) {
  if (run.steadyAt || !existsSync(run.consolePath)) return;
  const fd = openSync(run.consolePath, 'r');
  const buffer = Buffer.alloc(1 << 16);
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, run.offset);
    if (read === 0) break;
    const text = buffer.subarray(0, read).toString('utf8');
    const complete = text.lastIndexOf('\n');
    if (complete === -1) break;
    run.offset += Buffer.byteLength(text.slice(0, complete + 1));
    const { requests } = parseConsole(text.slice(0, complete + 1));
    const steady = requests.find((r) => STEADY_OPS[run.name]?.has(r.op) ?? true);
    if (steady) {
      run.steadyAt = steady.t;
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The faults: one nats-server, one instance of each service, one gateway.
function faultPlan(state) {
  const first = (kind, service) =>
    state.processes.find((p) => p.kind === kind && (!service || p.service === service));
  const services = [
    ...new Set(state.processes.filter((p) => p.kind === 'service').map((p) => p.service)),
  ];
  return [first('nats'), ...services.map((service) => first('service', service)), first('gateway')]
    .filter(Boolean)
    .map((p) => p.name);
}

async function kill(name) {
  const before = readCluster()?.processes.find((p) => p.name === name);
  if (!before) throw new Error(`no process ${name} in cluster.json`);
  const killedAt = Date.now();
  process.kill(before.pid, 'SIGKILL');
  say(`SIGKILL to ${name} (pid ${before.pid}) at ${new Date(killedAt).toISOString()}`);
  for (;;) {
    if (clusterLost) throw new Error(clusterLost);
    const now = readCluster()?.processes.find((p) => p.name === name);
    if (now && now.pid !== before.pid && (await ready(now))) {
      const backAt = Date.now();
      say(`${name} is back (pid ${now.pid}) and ready after ${seconds(backAt - killedAt)} s`);
      return { name, killedAt, backAt };
    }
    if (Date.now() - killedAt > BACK_WITHIN_MS) {
      return { name, killedAt, backAt: undefined };
    }
    await delay(250);
  }
}

async function sleepUntil(at) {
  while (Date.now() < at) {
    if (clusterLost) throw new Error(clusterLost);
    const gone = [...k6Runs.values()].find((run) => exited(run.child));
    if (gone) throw new Error(`k6 of ${gone.name} stopped early (see ${gone.name}.k6.log)`);
    await delay(Math.min(500, at - Date.now()));
  }
}

// ---------------------------------------------------------------------------------------------
// The reconciliation: tried again until the stores agree or SETTLE_MS has passed (a share
// reaches the community through an outbox and a consumer, the leaderboard recomputes behind).
async function settle(state, writes) {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    let result;
    try {
      result = await reconcile({ mongoUrl: state.mongoUrl, entry: state.entry, writes });
    } catch (error) {
      result = { error: error instanceof Error ? error.message : String(error) };
    }
    const clean = !result.error && result.lost.length === 0 && result.problems.length === 0;
    if (clean || Date.now() > deadline) return result;
    await delay(3_000);
  }
}

function markdownTable(rows, totals) {
  const lines = [
    '| fault | back and ready after (s) | error window (s) | requests failed / total in the window | requests failed / total from this kill to the next | acknowledged writes (lost) | p95 before (ms) | time to p95 within 1.5x (s) |',
    '| --- | --: | --: | --: | --: | --: | --: | --: |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.label} | ${row.backAt ? seconds(row.backAt - row.killedAt) : row.killedAt ? 'NOT BACK' : '-'} | ` +
        `${row.window ? seconds(row.window.to - row.window.from) : row.killedAt ? '0' : '-'} | ` +
        `${row.window ? `${row.failed} / ${row.window.total}` : row.killedAt ? '0 / 0' : '-'} | ` +
        `${row.failed} / ${row.requests} | ${row.acknowledged} (${row.lost}) | ` +
        `${row.p95Before === undefined ? '-' : Math.round(row.p95Before)} | ` +
        `${row.killedAt === undefined ? '-' : row.recoveredMs === undefined ? 'not within the period' : seconds(row.recoveredMs)} |`,
    );
  }
  lines.push(
    `| all | | | | ${totals.failed} / ${totals.requests} | ${totals.acknowledged} (${totals.lost}) | | |`,
  );
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
let failure;
const problems = [];
try {
  say(`${smoke ? 'smoke' : 'full'} size: ${JSON.stringify(size.rates)} iterations a second`);
  const state = await startCluster();
  const plan = faultPlan(state);
  for (const name of SCENARIOS) startK6(name, state.entry);
  // Every scenario at its steady rate (the storm's setup writes the debates it votes on first).
  const since = Date.now();
  while ([...k6Runs.values()].some((run) => !run.steadyAt)) {
    if (Date.now() - since > 3 * 60_000)
      throw new Error('k6 did not reach its steady load in 3 min');
    await sleepUntil(Date.now() + 500);
    for (const run of k6Runs.values()) watchSteady(run);
  }
  say(`steady load from all four scenarios; the first fault in ${seconds(size.beforeMs)} s`);
  let next = Date.now() + size.beforeMs;
  const faults = [];
  for (const name of plan) {
    await sleepUntil(next);
    const fault = await kill(name);
    faults.push(fault);
    if (!fault.backAt) {
      problems.push(`${name} was not back and ready within ${seconds(BACK_WITHIN_MS)} s`);
      break;
    }
    next = Math.max(fault.killedAt + size.periodMs, fault.backAt + size.beforeMs);
  }
  await sleepUntil(next);
  const endAt = Date.now();
  say('stopping k6');
  await stopK6();

  const records = { requests: [], writes: [], other: [] };
  for (const run of k6Runs.values()) {
    const parsed = parseConsole(
      existsSync(run.consolePath) ? readFileSync(run.consolePath, 'utf8') : '',
    );
    records.requests.push(...parsed.requests);
    // One scenario's writes in the order they were made (one VU's, one after another).
    records.writes.push(...parsed.writes);
    records.other.push(...parsed.other.map((line) => `${run.name}: ${line}`));
  }
  if (records.requests.length === 0) throw new Error('k6 recorded no request');
  if (records.other.length > 0) {
    say(`k6's warnings (${records.other.length}; all in ${work}/*.console), the first ones:`);
    for (const line of records.other.slice(0, 8)) say(`  ${line.slice(0, 300)}`);
  }

  say(`reconciling ${records.writes.length} writes against the stores`);
  const result = await settle(state, records.writes);
  if (result.error) throw new Error(`the reconciliation failed: ${result.error}`);
  problems.push(...result.problems);

  // Per fault (and the quiet time before the first): the figures, and the writes acknowledged
  // in its period with those of them lost.
  const figures = faultFigures(records.requests, faults, {
    baselineMs: size.beforeMs,
    windowMs: size.windowMs,
    holdMs: HOLD_MS,
    factor: FACTOR,
    endAt,
  });
  const firstKill = faults[0]?.killedAt ?? endAt;
  const acknowledged = records.writes.filter((w) => w.acknowledged && w.w !== 'run');
  const inPeriod = (from, to) => (w) => w.t >= from && w.t < to;
  const quiet = records.requests.filter((r) => r.end < firstKill);
  const rows = [
    {
      label: 'before the first fault',
      requests: quiet.length,
      failed: quiet.filter((r) => !r.ok).length,
      acknowledged: acknowledged.filter(inPeriod(0, firstKill)).length,
      lost: result.lost.filter(inPeriod(0, firstKill)).length,
    },
    ...figures.map((figure) => {
      const within = inPeriod(figure.killedAt, figure.periodEnd);
      return {
        ...figure,
        label: `SIGKILL ${figure.name}`,
        acknowledged: acknowledged.filter(within).length,
        lost: result.lost.filter(within).length,
      };
    }),
  ];
  // Writes acknowledged after k6 was told to stop (the last iterations) count in the last row.
  const last = rows.at(-1);
  last.acknowledged += acknowledged.filter((w) => w.t >= endAt).length;
  last.lost += result.lost.filter((w) => w.t >= endAt).length;
  const totals = {
    requests: records.requests.length,
    failed: records.requests.filter((r) => !r.ok).length,
    acknowledged: acknowledged.length,
    lost: result.lost.length,
  };
  process.stdout.write(
    `\nThe fault run (${smoke ? 'smoke' : 'full'} size), ${new Date(started).toISOString()}, ` +
      `${seconds(Date.now() - started)} s in all; checked ${result.checked} acknowledged writes ` +
      `(votes, stars, saves, shares, free debates taken); ${result.figures.publicDebates} public ` +
      `debates, ${result.figures.ranked} in the rankings, the leaderboard counting ` +
      `${result.figures.leaderboard} judged:\n\n${markdownTable(rows, totals)}\n\n`,
  );
  // What failed, per period: the commonest answers (status, code, message) of the failures.
  const periods = [
    { label: 'before the first fault', from: 0, to: firstKill },
    ...figures.map((f) => ({ label: f.name, from: f.killedAt, to: f.periodEnd })),
  ];
  for (const { label, from, to } of periods) {
    const counts = new Map();
    for (const r of records.requests) {
      if (r.ok || r.end < from || r.end >= to) continue;
      const key = `${r.op}: ${r.error ?? 'did not complete'}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3);
    if (top.length > 0) say(`${label}: ${top.map(([key, n]) => `${n} × ${key}`).join('; ')}`);
  }
  for (const lost of result.lost.slice(0, 20)) say(`LOST ${lost.w}: ${lost.why}`);
  if (result.lost.length > 0) problems.push(`${result.lost.length} acknowledged write(s) lost`);
  if (acknowledged.length === 0) problems.push('k6 saw no write acknowledged');
} catch (error) {
  failure = error instanceof Error ? error.message : String(error);
} finally {
  await stopAll();
}

if (failure) problems.unshift(failure);
if (problems.length > 0) {
  for (const problem of problems) process.stderr.write(`load:faults: FAILED: ${problem}\n`);
  const tail = readFileSync(logPath, 'utf8').trimEnd().split('\n').slice(-20).join('\n');
  process.stderr.write(`The cluster's last lines (all of them in ${logPath}):\n${tail}\n`);
  process.stderr.write(`load:faults: the records, logs and store are kept in ${work}\n`);
  process.exit(1);
}
if (keep) say(`the records, logs and store are kept in ${work}`);
else rmSync(work, { recursive: true, force: true });
say('no acknowledged write lost; every process came back');
