// Gateway benchmark: what the gateway and the NATS hop cost. The community ranking query and
// `catalog`, through the gateway over NATS in cluster mode (each service and the gateway a
// process of its own, a real nats-server, the embedded store with 10,000 public debates),
// beside the same service methods called in this process with no gateway and no NATS, in one
// run: at a fixed 500 requests a second, and at saturation.
//
//   npm run bench:gateway
//   npm run bench:gateway -- --duration 10 --rate 500 --concurrency 32 --debates 10000 --no-build
//   npm run bench:gateway -- --rounds 5     (rounds of the fixed-rate measurement; default 3)
//   npm run bench:gateway -- --profile /tmp/profiles   (a CPU profile of each cluster process)
//
// Latency is measured by this process around each call (performance.now()): an HTTP request
// on a keep-alive connection for the gateway, a method call in-process. Both share the 2 cores
// with everything else that runs, as a real deployment on one host would.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { connect } from '@nats-io/transport-node';
import { Pool } from 'undici';
import { fixed, reportFailures, Samples } from './bench/samples.mjs';
import { buildAll, ensureInstalled, root, startEmbeddedIssuerProcess } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    // The fixed-rate measurement is taken in rounds, the two paths in alternating order.
    rounds: { type: 'string', default: '3' },
    rate: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '32' },
    debates: { type: 'string', default: '10000' },
    'no-build': { type: 'boolean', default: false },
    // Writes a V8 CPU profile of each cluster process into this folder (open in Chrome DevTools).
    profile: { type: 'string' },
    // Only the queries whose name starts with this: 'ranking' or 'catalog' (no seeding then).
    only: { type: 'string' },
  },
});
const seconds = Number(values.duration);
const rounds = Number(values.rounds);
const rate = Number(values.rate);
const concurrency = Number(values.concurrency);

if (!values['no-build']) {
  ensureInstalled();
  buildAll();
}

await import('reflect-metadata');
const { startNatsServer } = await import('@debate/nest/testing');
const { inProcessTransport } = await import('@debate/nest');
const { NestFactory } = await import('@nestjs/core');
const { CommunityServiceModule, PublicDebatesController } =
  await import('@debate/community-service');
const { debateCategories } = await import('@debate/contracts');
const { seedCommunity } = await import('./bench/seed-community.mjs');
const { GenerationServiceModule, speakerEnvSchema } = await import('@debate/generation-service');
// The same file the module registers (the package resolves to services/generation): its token.
const { CatalogController } =
  await import('../services/generation/dist/catalog/catalog.controller.js');

// ---------------------------------------------------------------------------------------------
// Cluster mode: a nats-server, the store, five services and the gateway, each its own process
const dataDir = mkdtempSync(join(tmpdir(), 'bench-gateway-'));
const children = [];
// Every process of the measurement, for its CPU time per request (Linux: /proc/<pid>/stat).
const processes = [{ label: 'benchmark', pid: process.pid }];
/** Starts a process; answers the first group of `ready` once its output matches (without: at once). */
function startProcess(label, args, env, ready) {
  const profile = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [];
  const child = spawn(process.execPath, [...profile, ...args], {
    cwd: root,
    // As the images run them (deploy/docker/Dockerfile); graphql-js, for one, checks less then.
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  processes.push({ label, pid: child.pid });
  if (!ready) return undefined;
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${label} did not start:\n${output}`)), 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`${label} exited (${code}):\n${output}`)));
  });
}
const stopAll = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
};
process.on('exit', () => {
  stopAll();
  rmSync(dataDir, { recursive: true, force: true });
});

const nats = await startNatsServer();
processes.push({ label: 'nats-server', pid: nats.pid });
const mongoUrl = await startProcess(
  'store',
  ['libs/embedded-mongo/dist/cli.js', '--port', '0', '--dbpath', join(dataDir, 'mongo')],
  {},
  /listening at (mongodb:\/\/\S+)/,
);
const storeProcess = children.at(-1);
// The identity service signs in against a Keycloak: the embedded issuer stands in.
const issuer = await startEmbeddedIssuerProcess({ mongoUrl, dataDir });
children.push(issuer.child);
processes.push({ label: 'issuer', pid: issuer.child.pid });
const common = { NATS_URL: nats.url, MONGO_URL: mongoUrl, DATA_DIR: dataDir };
const realm = { KEYCLOAK_URL: issuer.url, KEYCLOAK_CLIENT_SECRET: issuer.secret };
const { serviceNames: services } = await import('@debate/contracts');
// Ready once its handlers answer (checked below, through the gateway): at LOG_LEVEL warn a
// service prints nothing to wait for (waiting for a line took the start-up's whole minute).
for (const service of services) {
  startProcess(service, [`services/${service}/dist/main.js`], {
    ...common,
    ...(service === 'identity' ? realm : {}),
    OPS_PORT: '0',
    LOG_LEVEL: 'warn',
  });
}
const url = await startProcess(
  'gateway',
  ['gateway/dist/main.js'],
  // Its start-up line is logged at info; requests are not logged at all.
  { ...common, PORT: '0', HOST: '127.0.0.1', OPS_PORT: '0', LOG_LEVEL: 'info' },
  /The gateway is listening at (http:\/\/[^,\s"]+)/,
);
// The machine's floor: the same hops (HTTP, then NATS to another process and back) with none of
// the platform's code: a bare node:http server and a bare nats.js responder (bench/floor.mjs).
await startProcess(
  'floor responder',
  ['scripts/bench/floor.mjs', 'responder', nats.url],
  {},
  /floor responder (ready)/,
);
const floorUrl = await startProcess(
  'floor server',
  ['scripts/bench/floor.mjs', 'server', nats.url],
  {},
  /floor listening at (http:\/\/\S+)/,
);
const floorNats = await connect({ servers: nats.url });
// The client: undici, whose per-request work is a fraction of node:http's (about 0.1 ms less
// on this machine, all of it counted as the gateway's otherwise). One connection per caller.
const pool = new Pool(url, { connections: Math.max(concurrency, 64), pipelining: 1 });
const floorPool = new Pool(floorUrl, { connections: Math.max(concurrency, 64), pipelining: 1 });
const JSON_HEADERS = { 'content-type': 'application/json' };

async function post(body) {
  const response = await pool.request({
    path: '/graphql',
    method: 'POST',
    headers: JSON_HEADERS,
    body,
  });
  const text = await response.body.text();
  if (response.statusCode !== 200 || text.includes('"errors"')) {
    throw new Error(`${response.statusCode}: ${text.slice(0, 200)}`);
  }
  return text;
}

/** The floor's answer to a query's shape: `fanout` NATS requests, the query's answer's bytes. */
async function floorPost(key, fanout) {
  const response = await floorPool.request({ path: `/${key}/${fanout}`, method: 'POST', body: '' });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${text.slice(0, 200)}`);
  return text;
}

// Up once the services behind the two queries answer through the gateway.
const UP = JSON.stringify({ query: '{ catalog { topics } communityDebates(limit: 1) { next } }' });
for (let attempt = 0; ; attempt += 1) {
  const failure = await post(UP).then(
    () => undefined,
    (error) => error,
  );
  if (!failure) break;
  if (attempt > 100) throw new Error(`the services did not come up: ${failure.message}`);
  await new Promise((resolve) => setTimeout(resolve, 200));
}
// ---------------------------------------------------------------------------------------------
// The same methods in this process: the community service's module on the same store, with
// the in-process transport (no NATS), and the catalog's controller.
const communityApp = await NestFactory.createApplicationContext(
  CommunityServiceModule.register({
    logLevel: 'silent',
    transport: inProcessTransport(),
    mongoUrl,
  }),
  { logger: false },
);
const ranking = communityApp.get(PublicDebatesController);
// The catalog's controller as the generation service builds it: its module, on the speakers'
// settings the cluster's generation process reads from this same environment (no MODEL_CATALOG:
// the offline speaker alone). Nest injects what the controller needs, so the baseline follows
// the controller instead of a copy of its dependencies that rots.
const generationApp = await NestFactory.createApplicationContext(
  GenerationServiceModule.register({
    logLevel: 'silent',
    transport: inProcessTransport(),
    mongoUrl,
    speakers: speakerEnvSchema.parse(process.env),
  }),
  { logger: false },
);
const catalog = generationApp.get(CatalogController);

const RANK = {
  sort: 'popular',
  period: 'all',
  utcOffsetMinutes: 0,
  starredOnly: false,
  limit: 10,
};
const rankingQuery = {
  name: 'ranking (Most Popular, All Time)',
  key: 'ranking',
  // The service requests the gateway sends for it (the floor sends as many).
  fanout: 1,
  body: JSON.stringify({
    query: `{ communityDebates(sort: MOST_POPULAR, period: ALL_TIME, limit: 10) {
        debates { id topic categories userDisplayName sharedAt upvotes downvotes interesting
          views myVote starred model1 { name stance rhetoricStyle } model2 { name stance rhetoricStyle } }
        next } }`,
  }),
  direct: () => ranking.rank({ ...RANK }),
};
const catalogQuery = {
  name: 'catalog',
  key: 'catalog',
  // The generation service's catalog; the gateway adds the ten categories itself.
  fanout: 1,
  body: JSON.stringify({
    query:
      '{ catalog { categories rhetoricStyles debateFormats models { id label kind status } roundTitles topics } }',
  }),
  direct: async () => [catalog.get(), [...debateCategories]],
};

// ---------------------------------------------------------------------------------------------
// CPU time per process (user + system), where /proc tells it
const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();
const withProc = existsSync('/proc/self/stat');

/** Each process's CPU seconds so far, by label (nothing without /proc). */
function cpuSeconds() {
  const seconds = new Map();
  if (!withProc) return seconds;
  for (const { label, pid } of processes) {
    try {
      // The fields after the command's closing parenthesis: utime and stime are 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      seconds.set(label, (Number(fields[11]) + Number(fields[12])) / clockTicks);
    } catch {
      // The process has exited.
    }
  }
  return seconds;
}

/** Runs `measurement` and adds the CPU each process spent during it to `into` (seconds). */
async function counted(into, measurement) {
  const before = cpuSeconds();
  const result = await measurement();
  for (const [label, after] of cpuSeconds()) {
    into.set(label, (into.get(label) ?? 0) + after - (before.get(label) ?? after));
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Load: open loop at a fixed rate, and closed loop at saturation
/** A measurement's figures from its latencies (Samples, ms) over `elapsedMs`. */
function summarise(latencies, elapsedMs) {
  return {
    p50: latencies.percentile(50),
    p99: latencies.percentile(99),
    rps: (latencies.count * 1000) / elapsedMs,
    failures: latencies.errors,
    latencies,
    elapsedMs,
  };
}

/** Several measurements of one path as one: their requests pooled. */
function pooled(measurements) {
  return summarise(
    Samples.pooled(measurements.map((measurement) => measurement.latencies)),
    measurements.reduce((sum, measurement) => sum + measurement.elapsedMs, 0),
  );
}

/** `call()` as a promise: a synchronous throw is its rejection, counted like any other. */
function promised(call) {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `call` `rate` times a second for `seconds`, each on time whatever the others do. */
async function atRate(call) {
  const latencies = new Samples();
  const pending = [];
  const start = performance.now();
  const total = Math.round(rate * seconds);
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    pending.push(
      promised(call).then(
        () => latencies.add(performance.now() - sent),
        (error) => latencies.fail(error),
      ),
    );
  }
  await Promise.all(pending);
  return summarise(latencies, performance.now() - start);
}

/** `concurrency` callers back to back for `seconds`. */
async function saturated(call) {
  const latencies = new Samples();
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const sent = performance.now();
        try {
          await call();
          latencies.add(performance.now() - sent);
        } catch (error) {
          latencies.fail(error);
        }
      }
    }),
  );
  return summarise(latencies, performance.now() - start);
}

// Between two measurements: the processes finish the garbage collection the previous one left
// them (a Mark-Compact started under saturation lands in the next measurement's first second
// otherwise, and a steady 500 req/s does not follow a saturation burst in production). Never
// longer than a measurement itself, so that a smoke run stays short.
const settle = () => new Promise((resolve) => setTimeout(resolve, Math.min(2_000, seconds * 1000)));

async function measure(query) {
  const viaGateway = () => post(query.body);
  // The floor answers with the bytes the gateway answers this query with (with none when the
  // gateway fails: its path then reports the error).
  const answer = await viaGateway().catch(() => '');
  await floorNats.request(`bench.floor.set.${query.key}`, answer);
  const viaFloor = () => floorPost(query.key, query.fanout);
  // Warm every path (JIT, connections, the store's caches) before measuring.
  await saturated(viaGateway);
  await saturated(query.direct);
  await saturated(viaFloor);
  await settle();
  // The fixed rate in rounds, the three paths taking turns at going first, second and last:
  // whatever else this shared 2-core machine does over the minute (another process's
  // collection, the store stand-in's idle-time work, the host) falls on every path alike
  // instead of on whichever went first. Each path's percentiles are over all of its rounds'
  // requests.
  const gatewayRounds = [];
  const directRounds = [];
  const floorRounds = [];
  // The CPU each process spent during each path's rounds, in seconds.
  const cpu = { gateway: new Map(), direct: new Map(), floor: new Map() };
  for (let round = 0; round < rounds; round += 1) {
    const order = [
      [gatewayRounds, viaGateway, cpu.gateway],
      [directRounds, query.direct, cpu.direct],
      [floorRounds, viaFloor, cpu.floor],
    ];
    for (let turn = 0; turn < round % order.length; turn += 1) order.push(order.shift());
    for (const [into, call, spent] of order) {
      into.push(await counted(spent, () => atRate(call)));
      await settle();
    }
  }
  const gatewayRate = pooled(gatewayRounds);
  const directRate = pooled(directRounds);
  const floorRate = pooled(floorRounds);
  const perRound = gatewayRounds.map((gateway, round) => ({
    p50: gateway.p50 - directRounds[round].p50,
    p99: gateway.p99 - directRounds[round].p99,
  }));
  const gatewaySat = await saturated(viaGateway);
  await settle();
  const directSat = await saturated(query.direct);
  await settle();
  return {
    query: query.name,
    gatewayRate,
    directRate,
    floorRate,
    perRound,
    gatewaySat,
    directSat,
    cpu,
  };
}

// `catalog` reads no store: it is measured first, on the platform as it started. After the
// seeding and the ranking's load, the store stand-in and the community service go on collecting
// garbage for seconds once they fall idle (V8's memory reducer: Mark-Compacts of 13-31 ms on
// the store's 10,000 debates, which take both cores), and that landed in the catalog's p99
// although neither is on its path (a MongoDB has no such pauses).
const measured = (name) => !values.only || name.startsWith(values.only);
const rows = [];
if (measured(catalogQuery.name)) rows.push(await measure(catalogQuery));
if (measured(rankingQuery.name)) {
  const seeded = await seedCommunity({
    natsUrl: nats.url,
    debates: Number(values.debates),
    votes: Number(values.debates),
  });
  console.log(seeded.summary);
  rows.push(await measure(rankingQuery));
}

const ms = (value) => fixed(value);
console.log(
  `\n${rate} req/s open loop: ${rounds} rounds of ${seconds} s per path, taking turns; ` +
    `saturation = ${concurrency} callers back to back for ${seconds} s. Latency in ms, ` +
    `measured around each call by this process.\n`,
);
console.log(
  '| query | load | via gateway + NATS p50 / p99 | in-process p50 / p99 | added p50 / p99 | ' +
    'req/s gateway / in-process (ratio) | errors |\n| --- | --- | --- | --- | --- | --- | --- |',
);
for (const row of rows) {
  for (const [load, gateway, direct] of [
    [`${rate} req/s`, row.gatewayRate, row.directRate],
    ['saturation', row.gatewaySat, row.directSat],
  ]) {
    console.log(
      `| ${row.query} | ${load} | ${ms(gateway.p50)} / ${ms(gateway.p99)} | ` +
        `${ms(direct.p50)} / ${ms(direct.p99)} | ${ms(gateway.p50 - direct.p50)} / ` +
        `${ms(gateway.p99 - direct.p99)} | ${Math.round(gateway.rps)} / ${Math.round(direct.rps)} ` +
        `(${fixed(direct.rps / gateway.rps, 1)}x) | ${gateway.failures + direct.failures} |`,
    );
  }
}
// The floor: what HTTP and NATS alone cost on this machine, at the same rate, with the same
// bytes. What the hop adds beyond it is the platform's own code (the gateway, the transport,
// the service's RPC plumbing) and the CPU it takes from everything else on the two cores.
console.log(
  `\nThis machine's floor at ${rate} req/s (a bare node:http server and a bare nats.js ` +
    `responder, the query's service requests and answer, no platform code):\n\n` +
    '| query | floor p50 / p99 | added p50 / p99 | added beyond the floor p50 / p99 |\n' +
    '| --- | --- | --- | --- |',
);
for (const row of rows) {
  const { floorRate: floor, gatewayRate: gateway, directRate: direct } = row;
  const added = { p50: gateway.p50 - direct.p50, p99: gateway.p99 - direct.p99 };
  console.log(
    `| ${row.query} | ${ms(floor.p50)} / ${ms(floor.p99)} | ${ms(added.p50)} / ` +
      `${ms(added.p99)} | ${ms(added.p50 - floor.p50)} / ${ms(added.p99 - floor.p99)} |` +
      (floor.failures ? ` (${floor.failures} floor errors)` : ''),
  );
}
// Where the CPU goes: on two shared cores, what one path costs every process is also time the
// others wait for a core.
if (withProc) {
  console.log(
    `\nCPU time per request at ${rate} req/s, µs, by process (user + system, /proc; ` +
      `processes that spent under 5 µs left out):\n`,
  );
  for (const row of rows) {
    for (const [path, spent, requests] of [
      ['via gateway + NATS', row.cpu.gateway, row.gatewayRate.latencies.count],
      ['in-process', row.cpu.direct, row.directRate.latencies.count],
      ['floor', row.cpu.floor, row.floorRate.latencies.count],
    ]) {
      const each = [...spent]
        .map(([label, seconds]) => [label, (seconds * 1e6) / Math.max(requests, 1)])
        .filter(([, micros]) => micros >= 5)
        .sort((a, b) => b[1] - a[1]);
      const total = each.reduce((sum, [, micros]) => sum + micros, 0);
      console.log(
        `  ${row.query}, ${path}: ${Math.round(total)} in all: ` +
          each.map(([label, micros]) => `${label} ${Math.round(micros)}`).join(', '),
      );
    }
  }
}
console.log(`\nadded at ${rate} req/s, round by round (p50 / p99):`);
for (const row of rows) {
  const each = row.perRound.map((round) => `${ms(round.p50)} / ${ms(round.p99)}`);
  console.log(`  ${row.query}: ${each.join(', ')}`);
}
const worst = (key) => Math.max(...rows.map((row) => row.gatewayRate[key] - row.directRate[key]));
console.log(
  `\nat ${rate} req/s the gateway + NATS hop adds at most ${ms(worst('p50'))} ms p50 ` +
    `(goal <= 1 ms) and ${ms(worst('p99'))} ms p99 (goal <= 5 ms)`,
);

await communityApp.close();
await generationApp.close();
await pool.close();
await floorPool.close();
await floorNats.close();
// The services and the gateway first, then the store and the broker they drain through (a
// service whose store went at the same time waited out its shutdown grace for it).
const stopped = (child) =>
  child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
const rest = children.filter((child) => child !== storeProcess);
const restExited = rest.map(stopped);
for (const child of rest) if (child.exitCode === null) child.kill('SIGTERM');
await Promise.all(restExited);
const storeExited = stopped(storeProcess);
storeProcess.kill('SIGTERM');
await storeExited;
await nats.stop();
reportFailures(
  rows.flatMap((row) => [
    [`${row.query}, via gateway + NATS at ${rate} req/s`, row.gatewayRate.latencies],
    [`${row.query}, in-process at ${rate} req/s`, row.directRate.latencies],
    [`${row.query}, floor at ${rate} req/s`, row.floorRate.latencies],
    [`${row.query}, via gateway + NATS at saturation`, row.gatewaySat.latencies],
    [`${row.query}, in-process at saturation`, row.directSat.latencies],
  ]),
);
