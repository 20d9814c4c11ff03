// Community benchmark: 10,000 public debates, the ranking query through the gateway for each
// sort and period, Lighthouse's performance and accessibility of /community/ranking and /engine,
// the initial JS size.
//
//   npm run bench:community                                 # 10,000 debates, 5 s per query
//   npm run bench:community -- --debates 2000 --duration 3 --connections 10 --no-build
//
// The platform runs in a process of its own (scripts/bench/community-server.mjs): the five
// services and the gateway over a real nats-server, the embedded store. The debates reach the
// community service as the debates service shares them (debates.debate.shared on JetStream),
// and votes go through the community service's own subject. Server time is what the gateway
// reports in Server-Timing for each answer; the client's latency (autocannon) adds the
// loopback and the load generator, which shares the 2 cores.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromiumArgs, chromiumPath } from './chromium.mjs';
import {
  measureQuery,
  reportQueryFailures,
  startCommunityPlatform,
} from './bench/community-load.mjs';
import { fixed, reportFailures, Samples } from './bench/samples.mjs';
import { buildAll, ensureInstalled, root } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    debates: { type: 'string', default: '10000' },
    votes: { type: 'string', default: '20000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    'no-build': { type: 'boolean', default: false },
    'no-lighthouse': { type: 'boolean', default: false },
  },
});
const debateCount = Number(values.debates);
const voteCount = Number(values.votes);
const duration = Number(values.duration);
const connections = Number(values.connections);

if (!values['no-build']) {
  ensureInstalled();
  buildAll();
}

// After the build: the workspace's packages are imported from their dist.
const { seedCommunity } = await import('./bench/seed-community.mjs');

// ---------------------------------------------------------------------------------------------
// The platform
const { url, natsUrl, stop } = await startCommunityPlatform();

// ---------------------------------------------------------------------------------------------
// 10,000 shared debates over the last 60 days, then votes on them
const seeded = await seedCommunity({ natsUrl, debates: debateCount, votes: voteCount });
console.log(seeded.summary);

// ---------------------------------------------------------------------------------------------
// The ranking query, as /community/ranking sends it
const QUERY = `query Ranking($category: String, $sort: RankingSort, $period: RankingPeriod) {
  communityDebates(category: $category, sort: $sort, period: $period, limit: 10) {
    debates { id topic categories userDisplayName sharedAt upvotes downvotes interesting views
      myVote starred model1 { name stance rhetoricStyle } model2 { name stance rhetoricStyle } }
    next
  }
}`;

/** One run of autocannon on the query (bench/community-load.mjs). */
const measure = (request, connectionCount, seconds) =>
  measureQuery(url, request, connectionCount, seconds);

/**
 * The query's own time, one request at a time (no queueing behind other requests), then its
 * throughput with `connections` clients at once (where server time includes the queue).
 */
async function load(variables) {
  const request = {
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY, variables }),
  };
  await measure(request, 1, Math.min(1, duration)); // warm-up, not counted
  const alone = await measure(request, 1, duration);
  const loaded = await measure(request, connections, duration);
  return { alone, loaded };
}

const sorts = [
  ['MOST_POPULAR', 'Most Popular'],
  ['MOST_RECENT', 'Most Recent'],
  ['MOST_CONTROVERSIAL', 'Most Controversial'],
];
const periods = [
  ['ALL_TIME', 'All Time'],
  ['TODAY', 'Today'],
  ['THIS_WEEK', 'This Week'],
  ['THIS_MONTH', 'This Month'],
];
const rows = [];
for (const [sort, sortLabel] of sorts) {
  for (const [period, periodLabel] of periods) {
    rows.push({ query: `${sortLabel}, ${periodLabel}`, ...(await load({ sort, period })) });
  }
}
rows.push({
  query: 'Most Popular, All Time, Ethics',
  ...(await load({ sort: 'MOST_POPULAR', period: 'ALL_TIME', category: 'Ethics' })),
});

const f = (value) => fixed(value, 1);
console.log(
  `\nthe ranking query through the gateway, ${debateCount} public debates, ${duration} s per ` +
    `row and mode; server time = the gateway's Server-Timing. One at a time: 1 connection; ` +
    `loaded: ${connections} connections at once (server time then includes the queue)\n`,
);
console.log(
  '| query | one at a time: server p50 / p95 / p99 ms | req/s | ' +
    `loaded (${connections}): req/s | server p50 / p95 / p99 ms | errors |\n` +
    '| --- | --- | --- | --- | --- | --- |',
);
for (const { query, alone, loaded } of rows) {
  console.log(
    `| ${query} | ${f(alone.p50)} / ${f(alone.p95)} / ${f(alone.p99)} | ${Math.round(alone.rps)} ` +
      `| ${Math.round(loaded.rps)} | ${f(loaded.p50)} / ${f(loaded.p95)} / ${f(loaded.p99)} ` +
      `| ${alone.failures + loaded.failures} |`,
  );
}
const worst = (mode) => Math.max(...rows.map((row) => row[mode].p95));
console.log(
  `\nworst server p95: ${f(worst('alone'))} ms one at a time, ${f(worst('loaded'))} ms with ` +
    `${connections} at once (goal <= 30 ms)`,
);

// ---------------------------------------------------------------------------------------------
// The initial JS of the web app, as index.html loads it
const indexHtml = readFileSync(join(root, 'web/dist/index.html'), 'utf8');
const scripts = [
  ...indexHtml.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
  ...indexHtml.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
].map((match) => match[1]);
let rawBytes = 0;
let gzipBytes = 0;
for (const script of new Set(scripts)) {
  const content = readFileSync(join(root, 'web/dist', script));
  rawBytes += content.length;
  gzipBytes += gzipSync(content, { level: 9 }).length;
}
console.log(
  `initial JS: ${(gzipBytes / 1024).toFixed(1)} KB gzipped (${(rawBytes / 1024).toFixed(1)} KB ` +
    `raw, ${new Set(scripts).size} file(s)); goal <= 150 KB gzipped`,
);

// ---------------------------------------------------------------------------------------------
// Lighthouse, Debian's Chromium
const lighthouseRuns = [];
if (!values['no-lighthouse']) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const { default: desktopConfig } = await import('lighthouse/core/config/desktop-config.js');
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: chromiumArgs,
  });
  try {
    for (const path of ['/community/ranking', '/engine']) {
      for (const [label, config] of [
        ['mobile (Lighthouse default: Moto G Power, simulated slow 4G)', undefined],
        ['desktop (simulated, desktop throttling)', desktopConfig],
      ]) {
        // A run that fails is reported with the queries' failures, not thrown.
        const report = new Samples();
        lighthouseRuns.push([`Lighthouse of ${path}, ${label}`, report]);
        try {
          const result = await lighthouse(
            `${url}${path}`,
            {
              port: chrome.port,
              onlyCategories: ['performance', 'accessibility'],
              logLevel: 'error',
              output: 'json',
            },
            config,
          );
          const lhr = result?.lhr;
          if (!lhr || lhr.runtimeError) {
            throw new Error(lhr?.runtimeError?.message ?? 'Lighthouse gave no report');
          }
          report.add(lhr.categories.performance.score);
          const metric = (id) => lhr.audits[id]?.displayValue ?? '-';
          const failed = Object.values(lhr.audits)
            .filter((audit) => audit.scoreDisplayMode === 'binary' && audit.score === 0)
            .map((audit) => audit.id);
          console.log(
            `Lighthouse of ${path}, ${label}: performance ` +
              `${lhr.categories.performance.score} (goal >= 0.95), accessibility ` +
              `${lhr.categories.accessibility.score} (goal 1.0); ` +
              `FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, ` +
              `TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}` +
              (failed.length > 0 ? `; failed audits: ${failed.join(', ')}` : ''),
          );
        } catch (error) {
          report.fail(error);
        }
      }
    }
  } finally {
    await chrome.kill();
  }
}

await stop();
reportQueryFailures(rows);
reportFailures(lighthouseRuns);
