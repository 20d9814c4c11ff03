// Generation benchmark: many debates at once through the gateway's GraphQL subscription, the
// platform as `npm start` runs it (one process), the offline speaker writing at a set pace.
//
//   npm run bench:generation                      # 200 runs, 30 tokens/s, 200 ms first token
//   npm run bench:generation -- --runs 50 --tps 60
//
// Prints: errors; provider-token -> subscriber latency (from the moment the run recorded a
// piece of text to the moment this client received it) p50/p95/p99; the platform's event-loop
// lag p99 over the run (prom-client, the operations port's /metrics); its peak resident memory during the runs. The client
// shares the 2 cores with the server, so its own delays are part of the latency.
import { createClient } from 'graphql-ws';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { gatewayGraphql } from './bench/graphql.mjs';
import { reportFailures, Samples } from './bench/samples.mjs';
import { buildAll, ensureInstalled, startPlatformProcess } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '200' },
    tps: { type: 'string', default: '30' },
    'first-token-ms': { type: 'string', default: '200' },
    'pause-ms': { type: 'string', default: '1000' },
    'no-build': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const tps = Number(values.tps);
const firstTokenMs = Number(values['first-token-ms']);
const pauseMs = Number(values['pause-ms']);

if (!values['no-build']) {
  ensureInstalled();
  buildAll();
}

const { url, opsUrl, child } = await startPlatformProcess({
  // Every simulated user signs up from this one address: the benchmark's own platform.
  RATE_LIMITS: 'off',
  // And each holds a WebSocket open from it, past the default open at once per address.
  WEBSOCKETS_PER_ADDRESS: String(Math.max(runs, 100)),
  OFFLINE_TOKENS_PER_SECOND: String(tps),
  OFFLINE_FIRST_TOKEN_MS: String(firstTokenMs),
  TURN_PAUSE_MS: String(pauseMs),
});
const stop = () => {
  if (child.exitCode === null) child.kill('SIGTERM');
};

const graphql = gatewayGraphql(url);

async function inBatches(count, size, task) {
  const results = [];
  for (let start = 0; start < count; start += size) {
    const batch = Array.from({ length: Math.min(size, count - start) }, (_, i) => task(start + i));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

process.stdout.write(`Signing up ${runs} users…\n`);
const tokens = await inBatches(runs, 8, async (index) => {
  const data = await graphql(
    'mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password) { accessToken } }',
    { email: `bench-${index}@example.org`, password: 'benchmark password' },
  );
  return data.signUp.accessToken;
});

const settings = {
  topic: 'Should cities ban private cars from their centres?',
  debateFormat: 'structured',
  moderatorEnabled: false,
  first: { model: 'offline', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
  second: { model: 'offline', stance: -0.6, rhetoricStyle: 'casual', personality: '' },
};

/** The platform process's CPU time so far, in clock ticks (1/100 s), from /proc. */
function serverCpu() {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

const metrics = async () => (await fetch(`${opsUrl}/metrics`)).text();
const metric = (text, name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
await metrics(); // resets the event-loop lag histogram: the next scrape covers the run

process.stdout.write(
  `Starting ${runs} debates at once (${tps} tokens/s, ${firstTokenMs} ms to the first)…\n`,
);
const clientLag = monitorEventLoopDelay({ resolution: 10 });
clientLag.enable();
const cpuBefore = { client: process.cpuUsage(), server: serverCpu() };
// Peak resident memory during the runs (sampled; VmHWM would include the sign-ups' argon2id).
const rssNow = () =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
let peakRss = rssNow();
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssNow())), 100);
// Each text delta's latency; each failed run an error.
const latencies = new Samples();
const started = Date.now();
await Promise.all(
  tokens.map(async (token) => {
    let runId;
    try {
      runId = (
        await graphql(
          'mutation ($s: DebateSettingsInput!) { startDebate(settings: $s) }',
          { s: settings },
          token,
        )
      ).startDebate;
    } catch (error) {
      latencies.fail(error);
      process.stderr.write(`start: ${error.message}\n`);
      return;
    }
    const client = createClient({
      url: `${url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
    });
    try {
      const outcome = await new Promise((resolve, reject) => {
        client.subscribe(
          {
            query: 'subscription ($id: String!) { debateRun(id: $id) { type at } }',
            variables: { id: runId },
          },
          {
            next: (result) => {
              if (result.errors) return reject(new Error(result.errors[0].message));
              const event = result.data.debateRun;
              if (event.type === 'textDelta') latencies.add(Date.now() - event.at);
              if (event.type === 'runCompleted' || event.type === 'runFailed') resolve(event.type);
            },
            error: (error) =>
              reject(error instanceof Error ? error : new Error(String(error?.reason ?? error))),
            complete: () => resolve('closed'),
          },
        );
      });
      if (outcome !== 'runCompleted') {
        latencies.fail(`run ${runId}: ${outcome}`);
        process.stderr.write(`run ${runId}: ${outcome}\n`);
      }
    } catch (error) {
      latencies.fail(error);
      process.stderr.write(`run ${runId}: ${error.message}\n`);
    } finally {
      await client.dispose();
    }
  }),
);
const seconds = (Date.now() - started) / 1000;
clientLag.disable();
clearInterval(sampler);
peakRss = Math.max(peakRss, rssNow());
const clientCpu = process.cpuUsage(cpuBefore.client);
const serverCpuSeconds = (serverCpu() - cpuBefore.server) / 100;
const scraped = await metrics();

const rows = [
  ['runs', runs],
  ['errors', latencies.errors],
  ['text deltas delivered', latencies.count],
  ['wall time (s)', seconds.toFixed(1)],
  ['token -> subscriber p50 (ms)', latencies.percentile(50)],
  ['token -> subscriber p95 (ms)', latencies.percentile(95)],
  ['token -> subscriber p99 (ms)', latencies.percentile(99)],
  [
    'event-loop lag p99 (ms)',
    (metric(scraped, 'nodejs_eventloop_lag_p99_seconds') * 1000).toFixed(1),
  ],
  ['peak RSS during the runs (MB)', (peakRss / 1024).toFixed(0)],
  ['platform CPU (% of one core)', ((serverCpuSeconds / seconds) * 100).toFixed(0)],
  [
    'client CPU (% of one core)',
    (((clientCpu.user + clientCpu.system) / 1e6 / seconds) * 100).toFixed(0),
  ],
  ['client event-loop lag p99 (ms)', (clientLag.percentile(99) / 1e6).toFixed(1)],
];
for (const [name, value] of rows) process.stdout.write(`${name.padEnd(30)} ${value}\n`);
stop();
// Every run must complete: any error fails the benchmark, not only a run with no delta at all.
const passed = reportFailures([['token -> subscriber', latencies]]);
process.exit(passed && latencies.errors === 0 ? 0 : 1);
