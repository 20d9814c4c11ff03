// The tools this project builds from their Go modules (k6, Mailpit) with the ordinary Go client
// at a pinned version, each into a cache folder of its own outside the repository:
//   $XDG_CACHE_HOME/debate/<name>-<version>/<name> (or ~/.cache/debate/…)
// A tool is reused when present and built (`go install <module>@<version>`) when absent.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, hasCommand } from './workspace.mjs';

/** Where the tool's binary is (built or not). */
export function goToolPath({ name, version }) {
  return join(cacheRoot, `${name}-${version}`, name);
}

/**
 * The path of the tool at its pinned version: the one built before when it runs, else built now
 * with `go install`. Exits the process with a message when it cannot be had.
 *
 * `tool`: { name, module, version, goVersion (the oldest Go that builds it), runs(bin): a
 * short line when the binary at `bin` runs and is this version, '' otherwise }.
 */
export function ensureGoTool(tool) {
  const { name, module, version, goVersion, runs } = tool;
  const bin = goToolPath(tool);
  if (existsSync(bin)) {
    const line = runs(bin);
    if (line) {
      process.stdout.write(`${name}: ${bin} (${line}), built before\n`);
      return bin;
    }
    process.stdout.write(`${name}: ${bin} is not ${version} or does not run\n`);
  }
  const gobin = join(cacheRoot, `${name}-${version}`);
  if (!hasCommand('go')) {
    process.stderr.write(
      `${name} ${version} is not built yet, and building it needs Go, which is not installed ` +
        `(no \`go\` on PATH). Install Go ${goVersion} or newer (Debian 12's golang-go is 1.19, ` +
        `too old) and run this again: it runs \`go install ${module}@${version}\` with ` +
        `GOBIN=${gobin}.\n`,
    );
    process.exit(1);
  }
  mkdirSync(gobin, { recursive: true });
  process.stdout.write(
    `${name}: building ${module}@${version} with ${spawnSync('go', ['version'], { encoding: 'utf8' }).stdout.trim()}\n` +
      `  GOBIN=${gobin} go install ${module}@${version}   (a few minutes the first time)\n`,
  );
  const started = Date.now();
  // Outside the repository, so that no go.mod around the working directory has a say.
  const result = spawnSync('go', ['install', `${module}@${version}`], {
    cwd: gobin,
    stdio: 'inherit',
    env: { ...process.env, GOBIN: gobin },
  });
  const line = result.status === 0 && existsSync(bin) ? runs(bin) : '';
  if (!line) {
    process.stderr.write(
      `go install ${module}@${version} failed (${result.status ?? result.signal}` +
        `${result.status === 0 ? `, yet ${bin} does not run as ${version}` : ''}): see Go's output above.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(
    `${name}: built ${bin} (${line}) in ${Math.round((Date.now() - started) / 1000)} s\n`,
  );
  return bin;
}
