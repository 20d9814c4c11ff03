// What the community benchmarks (bench:community, bench:leaderboard) share: the platform started
// in a process of its own (community-server.mjs), and one measured run of a GraphQL query.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { root } from '../workspace.mjs';
import { reportFailures, Samples } from './samples.mjs';

/**
 * Starts bench/community-server.mjs and answers its gateway's and NATS's URLs once it says it is
 * ready, and `stop()`, which stops it and waits for it (it is stopped when this process exits
 * too).
 */
export async function startCommunityPlatform() {
  const server = spawn(process.execPath, ['scripts/bench/community-server.mjs'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.on('exit', () => {
    if (server.exitCode === null) server.kill('SIGTERM');
  });
  const [url, natsUrl] = await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no start:\n${output}`)), 60_000);
    server.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      const ready = /ready (\S+) (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve([ready[1], ready[2]]);
      }
    });
    server.once('exit', (code) => reject(new Error(`the platform exited (${code}):\n${output}`)));
  });
  const stop = async () => {
    if (server.exitCode !== null) return;
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  };
  return { url, natsUrl, stop };
}

/**
 * One run of autocannon on `request` against the gateway at `url`: the server's own times of the
 * successful answers (Server-Timing) as `server` (Samples: its errors are the failures, a status
 * other than 200, GraphQL errors or a request error), and req/s.
 */
export async function measureQuery(url, request, connectionCount, seconds) {
  const server = new Samples();
  const counted = {
    ...request,
    onResponse: (status, responseBody, _context, headers) => {
      if (status !== 200 || responseBody.includes('"errors"')) {
        server.fail(`${status}: ${responseBody.slice(0, 200)}`);
        return;
      }
      const timing = /dur=([\d.]+)/.exec(headers['server-timing'] ?? '');
      if (timing) server.add(Number(timing[1]));
    },
  };
  const running = autocannon({
    url,
    connections: connectionCount,
    duration: seconds,
    requests: [counted],
  });
  running.on('reqError', (error) => server.fail(error));
  const result = await running;
  return {
    rps: result.requests.average,
    p50: server.percentile(50),
    p95: server.percentile(95),
    p99: server.percentile(99),
    failures: server.errors,
    server,
  };
}

/** Reports the rows' failed measurements (bench/samples.mjs): each row's alone and loaded. */
export function reportQueryFailures(rows) {
  return reportFailures(
    rows.flatMap(({ query, alone, loaded }) => [
      [`${query}, one at a time`, alone.server],
      [`${query}, loaded`, loaded.server],
    ]),
  );
}
