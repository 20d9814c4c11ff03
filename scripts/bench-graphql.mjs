// GraphQL driver benchmark: the same gateway, built with Mercurius and with Apollo (both on
// Fastify), under the same load. Prints requests per second and latency for each.
//
//   npm run bench:graphql                       # 10 s per run, 50 connections
//   npm run bench:graphql -- --duration 30 --connections 100
//
// The platform runs as `npm start` runs it (one process, in-process transport), with request
// logging off (LOG_LEVEL=warn) so that the figures compare the GraphQL layers, not the logger.
// autocannon shares the machine with the server: compare the drivers, not absolute numbers
// across machines.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildAll, ensureInstalled, startChild } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '3' },
    drivers: { type: 'string', default: 'mercurius,apollo' },
    'no-build': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const warmup = Number(values.warmup);
const drivers = values.drivers.split(',');
for (const [name, value] of Object.entries({ duration, connections, warmup })) {
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
}
for (const driver of drivers) {
  if (!['mercurius', 'apollo'].includes(driver)) throw new Error(`unknown driver ${driver}`);
}

const queries = {
  'catalog (2 services)':
    '{ catalog { categories rhetoricStyles debateFormats models roundTitles topics } }',
  'health (5 services)': '{ health { service status } }',
  '__typename (no service)': '{ __typename }',
};

let port = 3900;
const dataDir = mkdtempSync(join(tmpdir(), 'bench-graphql-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
async function startPlatform(driver) {
  port += 1;
  const child = startChild(`platform:${driver}`, process.execPath, ['libs/platform/dist/main.js'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    GRAPHQL_DRIVER: driver,
    MONGO_PORT: '0',
    DATA_DIR: dataDir,
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the platform (${driver}) exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the platform (${driver}) did not start in 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

async function load(url, query, seconds) {
  const body = JSON.stringify({ query });
  // Check the answer once, so that a broken query cannot pass for a fast one.
  const probe = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = await probe.json();
  if (!probe.ok || answer.errors) throw new Error(`${query} failed: ${JSON.stringify(answer)}`);
  return autocannon({
    url: `${url}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration: seconds,
  });
}

if (!values['no-build']) {
  ensureInstalled();
  buildAll();
}

const rows = [];
for (const driver of drivers) {
  const platform = await startPlatform(driver);
  try {
    for (const [name, query] of Object.entries(queries)) {
      if (warmup > 0) await load(platform.url, query, warmup);
      const result = await load(platform.url, query, duration);
      const failures = result.errors + result.timeouts + result.non2xx;
      rows.push({
        driver,
        query: name,
        'req/s': Math.round(result.requests.average),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        failures,
      });
    }
  } finally {
    await platform.stop();
  }
}

process.stdout.write(
  `\n${connections} connections, ${duration} s per run after ${warmup} s of warm-up, Node ${process.version}\n`,
);
console.table(rows);
if (drivers.length === 2) {
  for (const name of Object.keys(queries)) {
    const [a, b] = drivers.map((driver) =>
      rows.find((row) => row.driver === driver && row.query === name),
    );
    process.stdout.write(
      `${name}: ${a.driver} / ${b.driver} = ${(a['req/s'] / b['req/s']).toFixed(2)}×\n`,
    );
  }
}
if (rows.some((row) => row.failures > 0)) {
  process.stderr.write('Some requests failed: the figures above are not valid.\n');
  process.exit(1);
}
