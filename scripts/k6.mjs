// k6, the load-testing tool the scenarios in deploy/k6 run with, built from its Go module with
// the ordinary Go client at a pinned version, into a cache outside the repository:
//   $XDG_CACHE_HOME/debate/k6-v1.8.1/k6 (or ~/.cache/debate/k6-v1.8.1/k6)
// It is reused when present and built (`go install go.k6.io/k6@v1.8.1`) when absent.
// k6 is AGPL-3.0: it is only run here, as a separate program; nothing links, changes or ships it.
//
//   node scripts/k6.mjs                       builds k6 if needed and prints its path
//   node scripts/k6.mjs run deploy/k6/sign-in.ts -e BASE_URL=…   the same, then runs k6 with these arguments
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot, hasCommand } from './workspace.mjs';

export const K6_MODULE = 'go.k6.io/k6';
export const K6_VERSION = 'v1.8.1';

/** Where this project keeps the tools it builds or downloads, outside the repository. */

export function k6Path() {
  return join(cacheRoot, `k6-${K6_VERSION}`, 'k6');
}

/** The version line of the k6 at `bin`, or '' when it does not run. */
function versionOf(bin) {
  const result = spawnSync(bin, ['version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : '';
}

/**
 * The path of k6 at the pinned version: the one built before when it is there, else built now
 * with `go install`. Exits the process with a message when it cannot be had.
 */
export function ensureK6() {
  const bin = k6Path();
  if (existsSync(bin)) {
    const version = versionOf(bin);
    if (version.includes(K6_VERSION)) {
      process.stdout.write(`k6: ${bin} (${version}), built before\n`);
      return bin;
    }
    process.stdout.write(`k6: ${bin} is not ${K6_VERSION} (${version || 'it does not run'})\n`);
  }
  const gobin = join(cacheRoot, `k6-${K6_VERSION}`);
  if (!hasCommand('go')) {
    process.stderr.write(
      `k6 ${K6_VERSION} is not built yet, and building it needs Go, which is not installed ` +
        "(no `go` on PATH). Install Go 1.25 or newer (k6 1.8 needs it; Debian 12's golang-go is " +
        '1.19, too old) and run this ' +
        `again: it runs \`go install ${K6_MODULE}@${K6_VERSION}\` with GOBIN=${gobin}.\n`,
    );
    process.exit(1);
  }
  mkdirSync(gobin, { recursive: true });
  process.stdout.write(
    `k6: building ${K6_MODULE}@${K6_VERSION} with ${spawnSync('go', ['version'], { encoding: 'utf8' }).stdout.trim()}\n` +
      `  GOBIN=${gobin} go install ${K6_MODULE}@${K6_VERSION}   (a few minutes the first time)\n`,
  );
  const started = Date.now();
  // Outside the repository, so that no go.mod around the working directory has a say.
  const result = spawnSync('go', ['install', `${K6_MODULE}@${K6_VERSION}`], {
    cwd: gobin,
    stdio: 'inherit',
    env: { ...process.env, GOBIN: gobin },
  });
  const version = result.status === 0 && existsSync(bin) ? versionOf(bin) : '';
  if (!version.includes(K6_VERSION)) {
    process.stderr.write(
      `go install ${K6_MODULE}@${K6_VERSION} failed (${result.status ?? result.signal}` +
        `${result.status === 0 ? `, yet ${bin} is not ${K6_VERSION}` : ''}): see Go's output above.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(
    `k6: built ${bin} (${version}) in ${Math.round((Date.now() - started) / 1000)} s\n`,
  );
  return bin;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const bin = ensureK6();
  const args = process.argv.slice(2);
  if (args.length > 0) {
    const result = spawnSync(bin, args, { stdio: 'inherit' });
    process.exit(result.status ?? 1);
  }
}
