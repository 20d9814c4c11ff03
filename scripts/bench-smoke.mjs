// Every benchmark at its smoke size, one after another, as npm test runs them: each measured path
// of each bench:* script with few samples and short durations, so that a benchmark that no longer
// runs is noticed when it breaks, not on the day someone measures. The figures of a smoke run
// say nothing; each script still prints them, and fails when a path had no successful sample.
// The workspace must be built (`npx nx run-many -t build`): the scripts run with --no-build.
//
//   npm run bench:smoke                  # all of them, a few minutes
//   npm run bench:smoke -- gateway abuse # only these
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { root } from './workspace.mjs';

/** Each benchmark's smoke arguments (its script: scripts/bench-<name>.mjs). */
const SMOKE = {
  store: ['--documents', '1000', '--samples', '20', '--warmup', '0'],
  generation: ['--runs', '2', '--tps', '500', '--first-token-ms', '0', '--pause-ms', '0'],
  streaming: ['--debates', '1', '--ttft', '100', '--people', '2'],
  // Lighthouse takes minutes on two cores: the smoke run measures the queries and the JS size.
  community: [
    ...['--debates', '100', '--votes', '100', '--duration', '1', '--connections', '2'],
    '--no-lighthouse',
  ],
  leaderboard: ['--debates', '100', '--duration', '1', '--connections', '2'],
  gateway: [
    ...['--duration', '1', '--rounds', '1', '--rate', '50', '--concurrency', '2'],
    ...['--debates', '100'],
  ],
  abuse: ['--seconds', '1', '--rate', '10', '--flood-rate', '10'],
  // Its CI size: three motions and their rematches.
  team: ['--motions', '3'],
  // The tests' tiny model (the default without --model), a short answer.
  model: ['--tokens', '16', '--runs', '1'],
};

const names = process.argv.slice(2);
const unknown = names.filter((name) => !(name in SMOKE));
if (unknown.length > 0) {
  process.stderr.write(`No benchmark ${unknown.join(', ')}: ${Object.keys(SMOKE).join(', ')}\n`);
  process.exit(2);
}

const failed = [];
const took = [];
for (const name of names.length > 0 ? names : Object.keys(SMOKE)) {
  process.stdout.write(`\n=== bench:${name} (smoke) ===\n`);
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    [`scripts/bench-${name}.mjs`, ...SMOKE[name], '--no-build'],
    { cwd: root, stdio: 'inherit' },
  );
  const seconds = (performance.now() - started) / 1000;
  took.push(`${name} ${seconds.toFixed(0)} s`);
  if (result.status !== 0) failed.push(`bench:${name} (${result.status ?? result.signal})`);
}
process.stdout.write(`\nBenchmarks at smoke size: ${took.join(', ')}\n`);
if (failed.length > 0) {
  process.stderr.write(`Failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
