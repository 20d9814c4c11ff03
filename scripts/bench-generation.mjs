// Generation benchmark: many debates at once through the gateway's GraphQL subscription, over the
// platform as `npm run start:cluster -- --replicas 2` runs it (every service and the gateway
// twice, three clustered NATS servers, a round-robin proxy in front), isolated in a temporary
// directory on free ports (scripts/bench/cluster.mjs). Two clusters, one after the other, as the
// offline speaker's pace is a setting of the generation service:
//
// 1. Latency: the offline speaker at a realistic pace (--tps, --first-token-ms, --pause-ms);
//    --runs debates started at once, each followed through its own graphql-ws subscription.
//    The debates are spread over the two gateways by this client (start-cluster's entry proxy is
//    a hop of this one machine); the sign-ups go through the entry.
// 1b. The floor (bench/stream-floor.mjs), in the same run: the same debates' words at the same
//    pace over the same hops (three clustered nats-servers, bare speakers, bare WebSocket relays,
//    this client) with none of the platform's code: what the machine itself gives.
// 2. Throughput: the offline speaker at full speed (FULL_SPEED: no wait between words or turns);
//    --throughput-runs debates (as many as --runs unless given), THROUGHPUT_IN_FLIGHT at a time
//    (each one done starts the next), with both generation instances; then one of them is sent
//    SIGTERM (it drains and exits 0, and start-cluster leaves it stopped) and as many again with
//    the other alone. Debates completed per second, and the words streamed.
//
//   npm run bench:generation                      # 1000 at once, 30 tokens/s, 200 ms first token
//   npm run bench:generation -- --runs 50 --tps 60 --throughput-runs 100 --no-build
//
// Prints: errors (any fails the run); provider-token -> subscriber latency (from the moment the
// run recorded a piece of text to the moment this client received it) p50/p95/p99, the
// platform's and the floor's, and the CPU a message of each; then, for
// each phase and each process (this client included), its CPU as a share of one core, its peak
// resident memory during the phase and its event-loop lag p99 over it (prom-client's, from its
// operations port's /metrics), and the CPU the rest of the machine took. The client shares the
// 2 cores with the cluster, so its own delays are part of the latency.
import { createClient } from 'graphql-ws';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { startCluster, watchProcesses } from './bench/cluster.mjs';
import { gatewayGraphql } from './bench/graphql.mjs';
import { startStreamFloor } from './bench/stream-floor.mjs';
import { fixed, reportFailures, Samples } from './bench/samples.mjs';
import { buildAll, ensureInstalled } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    tps: { type: 'string', default: '30' },
    'first-token-ms': { type: 'string', default: '200' },
    'pause-ms': { type: 'string', default: '1000' },
    'throughput-runs': { type: 'string' },
    'no-build': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const tps = Number(values.tps);
const firstTokenMs = Number(values['first-token-ms']);
const pauseMs = Number(values['pause-ms']);
const throughputRuns = Number(values['throughput-runs'] ?? runs);
for (const [name, value] of Object.entries({ runs, 'throughput-runs': throughputRuns })) {
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`--${name} must be a whole number from 1\n`);
    process.exit(2);
  }
}
/**
 * The throughput phases' pace: each turn's words written at once, no pause between turns. The
 * first token still waits 200 ms, as a quick model's would: with none, a run is over before its
 * watcher's subscription arrives, which then gets each turn whole (turnCompleted) and no words
 * streamed, so the streaming path this benchmark is about would not be measured.
 */
const FULL_SPEED = { tps: 0, firstTokenMs: 200, pauseMs: 0 };
/**
 * Debates in flight at a time in the throughput phases: enough that the 200 ms before each of a
 * debate's six turns does not bound the rate (at most 200 / 1.2 s = 166 debates/s), the cores do.
 */
const THROUGHPUT_IN_FLIGHT = Math.min(200, throughputRuns);
const REPLICAS = 2;

if (!values['no-build']) {
  ensureInstalled();
  buildAll();
}

/** The cluster's environment for a benchmark at `pace`: its own, so its limits are off. */
function benchmarkEnv(pace, sockets) {
  return {
    // Every simulated user signs up from this one address: the benchmark's own platform.
    RATE_LIMITS: 'off',
    // And holds its WebSockets open from it (127.0.0.1, through the proxy or not), past the
    // default per address on each gateway; twice as many, as a closed one counts a moment longer.
    WEBSOCKETS_PER_ADDRESS: String(Math.max(2 * sockets, 100)),
    OFFLINE_TOKENS_PER_SECOND: String(pace.tps),
    OFFLINE_FIRST_TOKEN_MS: String(pace.firstTokenMs),
    TURN_PAUSE_MS: String(pace.pauseMs),
  };
}

const settings = {
  topic: 'Should cities ban private cars from their centres?',
  debateFormat: 'structured',
  moderatorEnabled: false,
  first: { model: 'offline', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
  second: { model: 'offline', stance: -0.6, rhetoricStyle: 'casual', personality: '' },
};

/**
 * `count` debates' worth of access tokens: new accounts signed up through the entry, 8 at a time
 * (each an argon2id hash in the issuer), each used for as many debates as its free allowance
 * gives a new account (two), which the starts-per-minute limit (five) allows at once.
 */
async function signUp(graphql, count, prefix) {
  const started = performance.now();
  const first = await signUpOne(graphql, `${prefix}-0`);
  const { freeDebatesRemaining: each } = (
    await graphql('{ usage { freeDebatesRemaining } }', {}, first)
  ).usage;
  const accounts = Math.ceil(count / each);
  const tokens = [first];
  for (let index = 1; index < accounts; index += 8) {
    const batch = Array.from({ length: Math.min(8, accounts - index) }, (_, i) =>
      signUpOne(graphql, `${prefix}-${index + i}`),
    );
    tokens.push(...(await Promise.all(batch)));
  }
  process.stdout.write(
    `Signed up ${accounts} users (${each} free debates each) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return tokens.flatMap((token) => Array(each).fill(token)).slice(0, count);
}

async function signUpOne(graphql, name) {
  const data = await graphql(
    'mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password) { accessToken } }',
    { email: `${name}@example.org`, password: 'benchmark password' },
  );
  return data.signUp.accessToken;
}

/** How many words `text` holds. */
const wordsIn = (text) => text?.match(/\S+/g)?.length ?? 0;

/** A graphql-ws client of `url`, connecting at once (with `token` when given). */
function wsClient(url, token) {
  return createClient({
    url,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    lazy: false,
    onNonLazyError: () => {},
    retryAttempts: 0,
  });
}

/**
 * Follows run `runId` through `client`'s debateRun subscription to its end. Calls
 * `onDelta(event)` with each text delta (the gateway joins pieces of a turn waiting to be sent
 * into one, with the earlier piece's time); answers { streamed, words, messages, turns }: the
 * words that came in text deltas, the debate's words in all (its completed turns), the
 * messages received and each completed turn's text. Throws when the run did not complete.
 */
async function follow(client, runId, onDelta) {
  let streamed = 0;
  let words = 0;
  let messages = 0;
  const turns = [];
  const outcome = await new Promise((resolve, reject) => {
    client.subscribe(
      {
        query: 'subscription ($id: String!) { debateRun(id: $id) { type at turn text } }',
        variables: { id: runId },
      },
      {
        next: (result) => {
          if (result.errors) return reject(new Error(result.errors[0].message));
          messages += 1;
          const event = result.data.debateRun;
          if (event.type === 'textDelta') {
            streamed += wordsIn(event.text);
            onDelta(event);
          }
          if (event.type === 'turnCompleted') {
            words += wordsIn(event.text);
            turns[event.turn] = event.text;
          }
          if (event.type === 'runCompleted' || event.type === 'runFailed') resolve(event.type);
        },
        error: (error) =>
          reject(error instanceof Error ? error : new Error(String(error?.reason ?? error))),
        complete: () => resolve('closed'),
      },
    );
  });
  if (outcome !== 'runCompleted') throw new Error(`run ${runId}: ${outcome}`);
  return { streamed, words, messages, turns };
}

/**
 * One debate as the engine page runs it, on `gateway` ({ graphql, ws }): its WebSocket opened
 * while the start is on its way (graphql-ws connecting at once), then followed to its end
 * (`follow`). Answers what `follow` does and when its start was answered (`startedAt`,
 * performance.now()). Throws when the start failed or the run did not complete.
 */
async function debate(gateway, token, onDelta) {
  const client = wsClient(gateway.ws, token);
  try {
    const runId = (
      await gateway.graphql(
        'mutation ($s: DebateSettingsInput!) { startDebate(settings: $s) }',
        { s: settings },
        token,
      )
    ).startDebate;
    const startedAt = performance.now();
    return { ...(await follow(client, runId, onDelta)), startedAt };
  } finally {
    await client.dispose();
  }
}

/** One of the floor's debates through `relay` (bench/stream-floor.mjs), as `debate` answers. */
async function floorDebate(relay, onDelta) {
  const client = wsClient(relay);
  try {
    const startedAt = performance.now();
    return { ...(await follow(client, randomUUID(), onDelta)), startedAt };
  } finally {
    await client.dispose();
  }
}

/**
 * Each gateway of `cluster` ({ graphql, ws }): the benchmark spreads its debates over them
 * itself, as k6 can spread its virtual users (issue 41 allows either): start-cluster's
 * round-robin proxy is a hop of this one machine (a deployment's load balancer runs on other
 * machines) and would take some 15 % of its two cores.
 */
function gatewaysOf(cluster) {
  return cluster.processes
    .filter((each) => each.kind === 'gateway')
    .map(({ port }) => ({
      graphql: gatewayGraphql(`http://127.0.0.1:${port}`),
      ws: `ws://127.0.0.1:${port}/graphql`,
    }));
}

/** The processes to watch: the cluster's, start-cluster (the entry's proxy), this client. */
function watched(cluster) {
  return [
    ...cluster.processes.map(({ name, pid, opsPort }) => ({ name, pid, opsPort })),
    ...cluster.unlisted,
    { name: 'start-cluster (proxy)', pid: cluster.pid },
    { name: 'this client', pid: process.pid },
  ];
}

/** `part` of `whole` in per cent. */
const share = (part, whole) => `${fixed((100 * part) / whole, 0)} %`;

/** The per-process table of a phase: CPU, peak memory, event-loop lag; and the CPU in all. */
function printProcesses({ processes: usage, others }, clientLagMs) {
  process.stdout.write(
    `  ${'process'.padEnd(26)} ${'CPU (% of a core)'.padStart(17)} ${'peak RSS (MB)'.padStart(13)} ${'lag p99 (ms)'.padStart(12)}\n`,
  );
  for (const each of usage) {
    const lag = each.pid === process.pid ? clientLagMs : each.lagP99Ms;
    process.stdout.write(
      `  ${each.name.padEnd(26)} ${fixed(each.cpu * 100, 0).padStart(17)} ${fixed(each.peakRssKb / 1024, 0).padStart(13)} ${fixed(lag, 1).padStart(12)}${each.alive ? '' : '  (gone)'}\n`,
    );
  }
  const total = usage.reduce((sum, each) => sum + (Number.isFinite(each.cpu) ? each.cpu : 0), 0);
  process.stdout.write(`  ${'all of them'.padEnd(26)} ${fixed(total * 100, 0).padStart(17)}\n`);
  process.stdout.write(
    `  ${'other work on the machine'.padEnd(26)} ${fixed(others * 100, 0).padStart(17)}\n`,
  );
}

/** Runs `task`, watching `processes`: its result, their usage, the client's lag p99. */
async function measured(processes, task) {
  const clientLag = monitorEventLoopDelay({ resolution: 10 });
  const end = await watchProcesses(processes);
  clientLag.enable();
  const result = await task();
  clientLag.disable();
  const usage = await end();
  return { result, usage, clientLagMs: clientLag.percentile(99) / 1e6 };
}

const latencies = new Samples();
// The same, apart: the first turn's words (written while the other debates are still being
// started and subscribed to) and the later turns' (the streaming alone).
const firstTurn = new Samples();
const laterTurns = new Samples();
/** Each phase's completed debates (as `debate` answers them). */
const completed = (list) => ({
  debates: list.length,
  startedAt: list.map((each) => each.startedAt).sort((a, b) => a - b),
  streamed: list.reduce((sum, each) => sum + each.streamed, 0),
  words: list.reduce((sum, each) => sum + each.words, 0),
  messages: list.reduce((sum, each) => sum + each.messages, 0),
});

/**
 * `runs` debates at once, each by `run(index, onDelta)`, their latencies into `samples` (and
 * the first turn's and the later turns' into `first` and `later` when given), watching
 * `processes`: what `measured` answers, with the phase's seconds and its completed debates'
 * figures (`completed`), and one completed debate's turns.
 */
async function atOnce(processes, run, { samples, first, later }) {
  const started = performance.now();
  const phase = await measured(processes, async () => {
    const done = await Promise.all(
      Array.from({ length: runs }, (_, index) =>
        run(index, (event) => {
          const latency = Date.now() - event.at;
          samples.add(latency);
          (event.turn === 0 ? first : later)?.add(latency);
        }).catch((error) => {
          samples.fail(error);
          process.stderr.write(`${error.message}\n`);
        }),
      ),
    );
    const ok = done.filter(Boolean);
    return { ...completed(ok), turns: ok[0]?.turns };
  });
  phase.seconds = (performance.now() - started) / 1000;
  // When the starts were answered, from the moment they were all sent: how long the burst of
  // starts held the debates apart (and the platform busy) before the streaming alone.
  phase.starts = [50, 100].map((p) => {
    const times = phase.result.startedAt;
    const at = times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))];
    return fixed((at - started) / 1000, 1);
  });
  return phase;
}

// ---------------------------------------------------------------------------------------------
// 1. Latency: --runs debates at once at a realistic pace, over two instances of everything.
const pace = { tps, firstTokenMs, pauseMs };
let cluster = await startCluster({
  replicas: REPLICAS,
  env: benchmarkEnv(pace, runs),
  label: 'latency cluster',
});
let latencyPhase;
try {
  const tokens = await signUp(gatewayGraphql(cluster.entry), runs, 'bench-latency');
  const gateways = gatewaysOf(cluster);
  process.stdout.write(
    `Starting ${runs} debates at once over ${gateways.length} gateways (${tps} tokens/s, ${firstTokenMs} ms to the first, ${pauseMs} ms between turns)…\n`,
  );
  latencyPhase = await atOnce(
    watched(cluster),
    (index, onDelta) => debate(gateways[index % gateways.length], tokens[index], onDelta),
    { samples: latencies, first: firstTurn, later: laterTurns },
  );
} finally {
  await cluster.stop({ keep: latencies.errors > 0 });
}

// ---------------------------------------------------------------------------------------------
// 1b. The floor, on the same machine in the same run: the same debates' words at the same pace
// over the same hops (a speaker process, three clustered nats-servers, a WebSocket server, this
// client), with none of the platform's code (bench/stream-floor.mjs).
const floorLatencies = new Samples();
let floorPhase;
if (latencyPhase?.result.turns) {
  const words = latencyPhase.result.turns.map((text) => text.match(/\S+\s*/g) ?? [text]);
  const floor = await startStreamFloor({ replicas: REPLICAS, pace, words });
  try {
    process.stdout.write(
      `The floor: ${runs} debates at once over ${floor.relays.length} bare relays, the same pace and words…\n`,
    );
    floorPhase = await atOnce(
      [...floor.processes, { name: 'this client', pid: process.pid }],
      (index, onDelta) => floorDebate(floor.relays[index % floor.relays.length], onDelta),
      { samples: floorLatencies },
    );
  } finally {
    await floor.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Throughput at full speed: two generation instances, then one.
cluster = await startCluster({
  replicas: REPLICAS,
  env: benchmarkEnv(FULL_SPEED, THROUGHPUT_IN_FLIGHT),
  label: 'throughput cluster',
});
const throughput = {};
const throughputErrors = new Samples();
try {
  const gateways = gatewaysOf(cluster);
  // Each phase's debates, and THROUGHPUT_IN_FLIGHT more first, unmeasured: so that the JIT has
  // compiled every process's hot paths before either phase, not only before the second.
  const tokens = await signUp(
    gatewayGraphql(cluster.entry),
    THROUGHPUT_IN_FLIGHT + 2 * throughputRuns,
    'bench-throughput',
  );
  /** `slots`' debates, THROUGHPUT_IN_FLIGHT at a time: what was completed, deltas, seconds. */
  const phase = async (slots) => {
    let next = 0;
    let deltas = 0;
    const done = [];
    const started = performance.now();
    const worker = async () => {
      while (next < slots.length) {
        const index = next;
        next += 1;
        try {
          const gateway = gateways[index % gateways.length];
          done.push(await debate(gateway, slots[index], () => (deltas += 1)));
        } catch (error) {
          throughputErrors.fail(error);
          process.stderr.write(`${error.message}\n`);
        }
      }
    };
    await Promise.all(Array.from({ length: THROUGHPUT_IN_FLIGHT }, worker));
    return { ...completed(done), deltas, seconds: (performance.now() - started) / 1000 };
  };
  const generation = cluster.processes.filter((each) => each.service === 'generation');
  process.stdout.write(
    `Throughput: ${throughputRuns} debates, ${THROUGHPUT_IN_FLIGHT} at a time, the offline speaker at full speed, ${generation.length} generation instances…\n`,
  );
  await phase(tokens.slice(0, THROUGHPUT_IN_FLIGHT));
  const measuredSlots = tokens.slice(THROUGHPUT_IN_FLIGHT);
  throughput.two = await measured(watched(cluster), () =>
    phase(measuredSlots.slice(0, throughputRuns)),
  );

  // One generation instance leaves as Kubernetes would stop it: SIGTERM, a drain, exit 0.
  const leaving = generation.at(-1);
  process.stdout.write(`Stopping ${leaving.name} (SIGTERM to ${leaving.pid})…\n`);
  process.kill(leaving.pid, 'SIGTERM');
  const deadline = Date.now() + 30_000;
  while (!cluster.exits.has(leaving.name) && Date.now() < deadline) await delay(100);
  // Were it started again, start-cluster would do so 2 s after the exit.
  await delay(3_000);
  const exit = cluster.exits.get(leaving.name);
  const again = cluster
    .current()
    .processes.some((each) => each.name === leaving.name && each.pid !== leaving.pid);
  if (exit !== '0' || again) {
    throw new Error(
      `${leaving.name} did not drain and stay stopped (exit ${exit ?? 'not seen'}${again ? ', started again' : ''})`,
    );
  }
  cluster.processes = cluster.processes.filter((each) => each.name !== leaving.name);
  process.stdout.write(`Throughput: the same again with ${generation[0].name} alone…\n`);
  throughput.one = await measured(watched(cluster), () =>
    phase(measuredSlots.slice(throughputRuns)),
  );
} catch (error) {
  throughputErrors.fail(error);
  process.stderr.write(`${error.message}\n`);
} finally {
  await cluster.stop({ keep: throughputErrors.errors > 0 });
}

// ---------------------------------------------------------------------------------------------
// The figures.
const rows = [
  ['runs at once', runs],
  ['errors', latencies.errors],
  ['text deltas delivered', latencies.count],
  [
    'words streamed',
    latencyPhase
      ? `${share(latencyPhase.result.streamed, latencyPhase.result.words)} (the rest in whole turns)`
      : '-',
  ],
  ['wall time (s)', fixed(latencyPhase?.seconds ?? NaN, 1)],
  ['starts answered p50/last (s)', latencyPhase?.starts.join(' / ') ?? '-'],
  ['token -> subscriber p50 (ms)', latencies.percentile(50)],
  ['token -> subscriber p95 (ms)', latencies.percentile(95)],
  ['token -> subscriber p99 (ms)', latencies.percentile(99)],
  ['  the first turn p50/p95/p99', [50, 95, 99].map((p) => firstTurn.percentile(p)).join(' / ')],
  ['  later turns p50/p95/p99', [50, 95, 99].map((p) => laterTurns.percentile(p)).join(' / ')],
  ['messages received', latencyPhase?.result.messages ?? '-'],
  ['CPU a message, all (ms)', cpuPerMessage(latencyPhase)],
];
/** A phase's CPU over every process watched, this client's included, per message received. */
function cpuPerMessage(phase) {
  if (!phase) return '-';
  const cores = phase.usage.processes.reduce(
    (sum, each) => sum + (Number.isFinite(each.cpu) ? each.cpu : 0),
    0,
  );
  return fixed((cores * phase.seconds * 1000) / phase.result.messages, 3);
}
process.stdout.write(
  `\nLatency: ${runs} debates at once, ${tps} tokens/s, ${firstTokenMs} ms to the first, two instances of each deployable\n`,
);
for (const [name, value] of rows) process.stdout.write(`  ${name.padEnd(30)} ${value}\n`);
if (latencyPhase) printProcesses(latencyPhase.usage, latencyPhase.clientLagMs);

if (floorPhase) {
  const floorRows = [
    ['errors', floorLatencies.errors],
    ['text deltas delivered', floorLatencies.count],
    ['wall time (s)', fixed(floorPhase.seconds, 1)],
    ['token -> subscriber p50 (ms)', floorLatencies.percentile(50)],
    ['token -> subscriber p95 (ms)', floorLatencies.percentile(95)],
    ['token -> subscriber p99 (ms)', floorLatencies.percentile(99)],
    ['messages received', floorPhase.result.messages],
    ['CPU a message, all (ms)', cpuPerMessage(floorPhase)],
    [
      'the platform against it, p95',
      `${fixed(latencies.percentile(95) / floorLatencies.percentile(95), 1)}x`,
    ],
    [
      'the platform against it, CPU',
      `${fixed(cpuPerMessage(latencyPhase) / cpuPerMessage(floorPhase), 1)}x a message`,
    ],
  ];
  process.stdout.write(
    `\nThe floor: the same ${runs} debates' words at the same pace over the same hops, none of the platform's code\n`,
  );
  for (const [name, value] of floorRows) process.stdout.write(`  ${name.padEnd(30)} ${value}\n`);
  printProcesses(floorPhase.usage, floorPhase.clientLagMs);
}

for (const [key, label] of [
  ['two', 'two generation instances'],
  ['one', 'one generation instance'],
]) {
  const measurement = throughput[key];
  if (!measurement) continue;
  const { debates, streamed, words, deltas, seconds } = measurement.result;
  // A watcher that subscribed after a turn was over gets it whole (turnCompleted), unstreamed.
  process.stdout.write(
    `\nThroughput, ${label}: ${debates} debates completed in ${seconds.toFixed(1)} s: ` +
      `${(debates / seconds).toFixed(1)} debates/s; ${(streamed / seconds).toFixed(0)} words/s ` +
      `streamed in ${(deltas / seconds).toFixed(0)} text deltas/s (${share(streamed, words)} of ` +
      `the words streamed, the rest in whole turns)\n`,
  );
  printProcesses(measurement.usage, measurement.clientLagMs);
}
if (throughput.two && throughput.one) {
  const rate = ({ result }) => result.debates / result.seconds;
  process.stdout.write(
    `\nThroughput, two generation instances against one: ${(rate(throughput.two) / rate(throughput.one)).toFixed(2)}x\n`,
  );
}
process.stdout.write(`  ${'throughput errors'.padEnd(30)} ${throughputErrors.errors}\n`);

// Every run must complete: any error fails the benchmark, not only a run with no delta at all.
const passed = reportFailures([
  ['token -> subscriber', latencies],
  ['the floor: token -> subscriber', floorLatencies],
]);
if (throughputErrors.errors > 0) {
  process.stderr.write(
    `throughput: ${throughputErrors.errors} errors; first error: ${throughputErrors.firstError}\n`,
  );
}
process.exit(
  passed && latencies.errors + floorLatencies.errors + throughputErrors.errors === 0 ? 0 : 1,
);
