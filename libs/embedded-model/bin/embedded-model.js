#!/usr/bin/env node
// The workspace bin: `npx embedded-model --port 8090 --cache-dir ~/.cache/debate/models`. Right
// after `npm ci` the library is not compiled yet: the first run compiles it (this project alone,
// a few seconds).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(entry)) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const project = fileURLToPath(new URL('../tsconfig.build.json', import.meta.url));
  process.stderr.write('embedded-model: compiling the library (first run)…\n');
  const result = spawnSync(process.execPath, [tsc, '-p', project], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import(entry.href);
