// The platform as `npm run start:cluster -- --replicas N` runs it (scripts/start-cluster.mjs),
// isolated for a benchmark: its own DATA_DIR in a fresh temporary directory (its NATS servers'
// stores, the embedded store's and the cluster.json it writes), free ports for the entry proxy,
// the operations ports, the three NATS servers, the store and the issuer, and none of this
// shell's MongoDB, Keycloak, NATS, model or provider settings. Its processes and their
// operations ports come from DATA_DIR/cluster.json; what each process uses from /proc.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { portAllocator } from '../load-common.mjs';
import { eachLine, groupAlive, root } from '../workspace.mjs';

/** What this shell may point at that a benchmark's own cluster must not use. */
const OUTSIDE =
  /^(MONGO_URL|NATS_URL|NATS_PASSWORDS_FILE|KEYCLOAK_\w+|AUTH_ISSUER_URL|AUTH_JWKS_URL|OPENAI_\w+|MODEL_CATALOG|JUDGE_MODELS|LOCAL_MODEL_\w+)$/;

/**
 * Starts `node scripts/start-cluster.mjs --replicas <replicas> --no-build --embedded-issuer`
 * (what is built runs: build first) with `env` added to its environment, which it passes on to
 * every process. Resolves once every gateway and service instance reports ready on its
 * operations port and the entry answers GraphQL: { entry, processes, unlisted, pid, exits,
 * current, stop }. `processes` is cluster.json's list; `unlisted` the processes start-cluster
 * started that it does not list (the store, the issuer: { name, pid }); `pid` start-cluster's
 * own (the entry's TCP proxy runs in it); `exits` each process's exit as start-cluster logged it (name -> code or signal).
 * `stop()` stops the cluster and removes its directory (kept, with its log, with `{ keep: true }`).
 * Lines start-cluster prints about its processes (exited, started again) are echoed with `label`.
 */
export async function startCluster({ replicas, env, label }) {
  const { serviceNames } = await import('@debate/contracts');
  const { freePort: take, freePortRange } = portAllocator();
  // The three NATS servers' client ports in a row, and an operations port for each gateway and
  // service instance, in a row from OPS_PORT.
  const natsPort = await freePortRange(3);
  const opsPort = await freePortRange(replicas * (1 + serviceNames.length));
  const work = mkdtempSync(join(tmpdir(), 'debate-bench-cluster-'));
  const dataDir = join(work, 'data');
  const logPath = join(work, 'cluster.log');
  const log = createWriteStream(logPath);
  const clusterEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !OUTSIDE.test(name)),
  );
  Object.assign(clusterEnv, {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(await take()),
    OPS_HOST: '127.0.0.1',
    OPS_PORT: String(opsPort),
    NATS_PORT: String(natsPort),
    MONGO_PORT: String(await take()),
    ISSUER_PORT: String(await take()),
    // The offline speaker writes every debate: no local model (it would fetch 1.1 GB).
    LOCAL_MODEL: 'off',
    // What a benchmark seeds, and nothing else.
    SEED_EXAMPLES: 'false',
    LOG_LEVEL: 'warn',
    ...env,
  });
  const args = [
    'scripts/start-cluster.mjs',
    '--replicas',
    String(replicas),
    '--no-build',
    '--embedded-issuer',
  ];
  process.stdout.write(
    `${label}: node ${args.join(' ')}  (entry port ${clusterEnv.PORT}, NATS ${natsPort}-${natsPort + 2}; data and log in ${work})\n`,
  );
  // Its own process group: whatever it leaves behind is stopped with it.
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: clusterEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exits = new Map();
  for (const stream of [child.stdout, child.stderr]) {
    eachLine(stream, (line) => {
      log.write(line + '\n');
      const exit = /^\[([\w-]+)\] exited \((\w+)\)/.exec(line);
      if (exit) exits.set(exit[1], exit[2]);
      if (/^(Cluster on|\[[\w-]+\] (exited|started again))/.test(line)) {
        process.stdout.write(`  ${label}: ${line.trim()}\n`);
      }
    });
  }
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  let stopped;
  const stop = ({ keep = false } = {}) => {
    stopped ??= (async () => {
      if (!gone()) {
        child.kill('SIGTERM');
        const deadline = Date.now() + 30_000;
        while (!gone() && Date.now() < deadline) await delay(100);
      }
      // start-cluster exits once it has signalled its broker and store: wait for them too, then
      // end whatever of its group is left.
      for (const signal of ['SIGTERM', 'SIGKILL']) {
        const deadline = Date.now() + 10_000;
        while (groupAlive(child.pid) && Date.now() < deadline) await delay(100);
        if (!groupAlive(child.pid)) break;
        try {
          process.kill(-child.pid, signal);
        } catch {
          break;
        }
      }
      await new Promise((resolve) => log.end(resolve));
      if (keep) process.stderr.write(`${label}: the cluster's data and log are kept in ${work}\n`);
      else rmSync(work, { recursive: true, force: true });
    })();
    return stopped;
  };
  // A crash of this script must not leave the cluster running.
  process.once('exit', () => {
    if (groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  });

  const clusterFile = join(dataDir, 'cluster.json');
  const since = Date.now();
  let waiting = 'cluster.json';
  for (;;) {
    if (gone()) {
      await stop({ keep: true });
      throw new Error(`${label}: start-cluster.mjs exited (${child.exitCode ?? child.signalCode})`);
    }
    if (Date.now() - since > 180_000) {
      await stop({ keep: true });
      throw new Error(`${label}: the cluster was not ready within 3 min (waiting for ${waiting})`);
    }
    if (existsSync(clusterFile)) {
      waiting = await notReady(JSON.parse(readFileSync(clusterFile, 'utf8')));
      if (!waiting) break;
    }
    await delay(250);
  }
  const described = JSON.parse(readFileSync(clusterFile, 'utf8'));
  process.stdout.write(
    `${label}: ${described.processes.length} processes ready in ${((Date.now() - since) / 1000).toFixed(1)} s\n`,
  );
  return {
    entry: described.entry,
    processes: described.processes,
    unlisted: unlisted(child.pid, new Set(described.processes.map((each) => each.pid))),
    pid: child.pid,
    exits,
    /** cluster.json as it is now (start-cluster rewrites it when it starts a process again). */
    current: () => JSON.parse(readFileSync(clusterFile, 'utf8')),
    stop,
  };
}

/** The children of `pid` not in `listed`, each named by the library it runs (or its command). */
function unlisted(pid, listed) {
  let children;
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ');
  } catch {
    return [];
  }
  return children
    .filter((each) => each.trim() !== '' && !listed.has(Number(each)))
    .map((each) => {
      const command = readFileSync(`/proc/${each}/cmdline`, 'utf8').split('\0');
      const library = command.map((arg) => /libs\/([\w-]+)\//.exec(arg)?.[1]).find(Boolean);
      return { name: library ?? basename(command[0]), pid: Number(each) };
    });
}

/** What is not ready yet (a process's readiness, the entry), or undefined when all are. */
async function notReady(cluster) {
  const probes = cluster.processes
    .filter((process) => process.opsPort)
    .map(async ({ name, opsPort }) => {
      try {
        const response = await fetch(`http://127.0.0.1:${opsPort}/health/ready`, {
          signal: AbortSignal.timeout(2_000),
        });
        return response.ok ? undefined : `${name} (${response.status})`;
      } catch {
        return `${name} (no answer)`;
      }
    });
  const waiting = (await Promise.all(probes)).filter(Boolean);
  if (waiting.length > 0) return waiting.join(', ');
  try {
    const response = await fetch(`${cluster.entry}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
      signal: AbortSignal.timeout(2_000),
    });
    return response.ok ? undefined : `the entry (${response.status})`;
  } catch {
    return 'the entry (no answer)';
  }
}

/** A process's CPU time so far in clock ticks (1/100 s), from /proc; undefined once it is gone. */
function cpuTicks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** A process's resident memory now, in kB, from /proc; 0 once it is gone. */
function rssKb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The machine's busy CPU time so far, in clock ticks (1/100 s) over all cores, from /proc/stat. */
function machineBusyTicks() {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .map(Number);
  return user + nice + system + irq + softirq + steal;
}

/**
 * Watches `processes` ({ name, pid, opsPort? }) over a phase. Answers a function that ends the
 * watch and answers { processes, others }: `others` the CPU the rest of the machine took over
 * the phase (a share of one core: other work on the same cores), and in `processes`, for each: its CPU time over the phase as a share of one core (`cpu`, 1 =
 * a whole core), its peak resident memory (sampled every 100 ms, kB; VmHWM would include what
 * came before the phase), its event-loop lag p99 in ms (prom-client's, from its operations
 * port's /metrics, whose scrape here at the start resets it; NaN without one) and whether it
 * was there to the end (`alive`).
 */
export async function watchProcesses(processes) {
  const scrape = async (opsPort) => {
    try {
      return await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
    } catch {
      return '';
    }
  };
  await Promise.all(processes.filter((each) => each.opsPort).map((each) => scrape(each.opsPort)));
  const before = processes.map((each) => cpuTicks(each.pid));
  const busyBefore = machineBusyTicks();
  const peaks = processes.map((each) => rssKb(each.pid));
  const sampler = setInterval(() => {
    processes.forEach((each, i) => (peaks[i] = Math.max(peaks[i], rssKb(each.pid))));
  }, 100);
  const started = performance.now();
  return async () => {
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    const after = processes.map((each) => cpuTicks(each.pid));
    const busy = (machineBusyTicks() - busyBefore) / 100 / seconds;
    const metrics = await Promise.all(
      processes.map((each) => (each.opsPort ? scrape(each.opsPort) : '')),
    );
    const measured = processes.map((each, i) => {
      const lag = /^nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(metrics[i])?.[1];
      return {
        ...each,
        cpu: after[i] === undefined ? NaN : (after[i] - before[i]) / 100 / seconds,
        peakRssKb: Math.max(peaks[i], rssKb(each.pid)),
        lagP99Ms: lag === undefined ? NaN : Number(lag) * 1000,
        alive: after[i] !== undefined,
      };
    });
    const ours = measured.reduce(
      (sum, each) => sum + (Number.isFinite(each.cpu) ? each.cpu : 0),
      0,
    );
    return { processes: measured, others: Math.max(0, busy - ours) };
  };
}
