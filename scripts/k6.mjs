// k6, the load-testing tool the scenarios in deploy/k6 run with, built from its Go module at a
// pinned version into the cache (scripts/go-tool.mjs): $XDG_CACHE_HOME/debate/k6-v1.8.1/k6.
// k6 is AGPL-3.0: it is only run here, as a separate program; nothing links, changes or ships it.
//
//   node scripts/k6.mjs                       builds k6 if needed and prints its path
//   node scripts/k6.mjs run deploy/k6/sign-in.ts -e BASE_URL=…   the same, then runs k6 with these arguments
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { ensureGoTool } from './go-tool.mjs';

const K6_MODULE = 'go.k6.io/k6';
const K6_VERSION = 'v1.8.1';

const k6 = {
  name: 'k6',
  module: K6_MODULE,
  version: K6_VERSION,
  goVersion: '1.25',
  runs: (bin) => {
    const result = spawnSync(bin, ['version'], { encoding: 'utf8' });
    const line = result.status === 0 ? result.stdout.trim() : '';
    return line.includes(K6_VERSION) ? line : '';
  },
};

/** The path of k6 at the pinned version, built first when needed (exits when it cannot be). */
export const ensureK6 = () => ensureGoTool(k6);

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const bin = ensureK6();
  const args = process.argv.slice(2);
  if (args.length > 0) {
    const result = spawnSync(bin, args, { stdio: 'inherit' });
    process.exit(result.status ?? 1);
  }
}
