// What the community benchmarks (bench:community, bench:leaderboard) share: the platform started
// in a process of its own (community-server.mjs), and one measured run of a GraphQL query.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { root } from '../workspace.mjs';

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

/** The `p`th percentile of ascending `sorted` (nearest rank). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * One run of autocannon on `request` against the gateway at `url`: the server's own times
 * (Server-Timing), req/s, and the failures (a status other than 200, or GraphQL errors).
 */
export async function measureQuery(url, request, connectionCount, seconds) {
  const serverMs = [];
  let failures = 0;
  const counted = {
    ...request,
    onResponse: (status, responseBody, _context, headers) => {
      const timing = /dur=([\d.]+)/.exec(headers['server-timing'] ?? '');
      if (timing) serverMs.push(Number(timing[1]));
      if (status !== 200 || responseBody.includes('"errors"')) failures += 1;
    },
  };
  const result = await autocannon({
    url,
    connections: connectionCount,
    duration: seconds,
    requests: [counted],
  });
  serverMs.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    p50: percentile(serverMs, 50),
    p95: percentile(serverMs, 95),
    p99: percentile(serverMs, 99),
    failures: failures + result.non2xx + result.errors,
  };
}
