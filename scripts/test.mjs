// npm test: everything CI checks, from a fresh clone. Installs the dependencies when needed,
// then lint, typecheck, build and unit tests of every project, docker-compose.yml and what each
// image holds (without a container engine), each service's integration tier (its handlers over
// the in-process transport against the embedded store), the system tier (the services and the
// gateway together over a real nats-server, and in process), the sign-in suite
// against the real Keycloak, every k6 scenario at smoke size with real k6 against the cluster,
// the fault run at smoke size (the scenarios together while processes are killed),
// every benchmark at its smoke size, the browser tests in Chromium, and the
// formatting check.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureInstalled, hasCommand, run, runNx } from './workspace.mjs';

function ensureSystemTools() {
  const missing = [];
  if (!hasCommand('nats-server')) missing.push('nats-server');
  if (!hasCommand('docker-compose')) missing.push('docker-compose');
  if (!hasCommand('mvn')) missing.push('maven');
  if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) missing.push('chromium');
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !hasCommand('apt-get')) {
    process.stderr.write(
      `The tests need ${missing.join(' and ')}: install them (Debian: apt-get install -y ${missing.join(' ')}).\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`Installing ${missing.join(', ')} (apt-get)…\n`);
  for (const args of [['update'], ['install', '-y', ...missing]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

ensureInstalled();
ensureSystemTools();
run('npx', ['prettier', '--check', '.', '--log-level', 'warn']);
await runNx(['run-many', '-t', 'lint', 'typecheck', 'build', 'test', '--outputStyle=static']);
run('node', ['scripts/config-doc.mjs']);
run('node', [
  '--test',
  'scripts/check-compose/*.test.mjs',
  'scripts/load-faults/*.test.mjs',
  'scripts/round-robin.test.mjs',
]);
run('node', ['scripts/check-images.mjs']);
await runNx(['run-many', '-t', 'integration', '--outputStyle=static']);
await runNx(['run', 'platform:system', '--outputStyle=static']);
await runNx(['run', 'platform:keycloak', '--outputStyle=static']);
run('node', ['scripts/load.mjs', '--smoke']);
// The fault run at smoke size: processes killed under steady load, no acknowledged write lost.
run('node', ['scripts/load-faults.mjs', '--smoke']);
// Every benchmark at its smoke size (bench-smoke.mjs), each failing when a measured path had no
// successful sample; the team-against-single one at its CI size: three motions and their
// rematches with the offline speaker, judged, shared and rated (it fails when any step does).
run('node', ['scripts/bench-smoke.mjs']);
await runNx(['run', 'web:e2e', '--outputStyle=static']);
// The core journeys again, against start:cluster with NATS permissions on (docs/testing.md).
await runNx(['run', 'web:e2e-cluster', '--outputStyle=static']);
process.stdout.write('\nAll checks passed.\n');
