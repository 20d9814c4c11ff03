// Shared Jest settings. Every project runs its TypeScript through swc as ES modules
// (NestJS 12 is ESM-only), so Jest runs with --experimental-vm-modules.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

/** Maps every workspace package (`@debate/*`) to its TypeScript source, so tests need no build. */
function workspaceSources() {
  const folders = [
    ...['libs', 'services'].flatMap((group) =>
      readdirSync(join(root, group)).map((name) => join(root, group, name)),
    ),
    join(root, 'gateway'),
  ];
  const map = {};
  for (const folder of folders) {
    const manifest = join(folder, 'package.json');
    const entry = join(folder, 'src', 'index.ts');
    if (!existsSync(manifest) || !existsSync(entry)) continue;
    const { name } = JSON.parse(readFileSync(manifest, 'utf8'));
    const escaped = name.replace('/', '\\/');
    map[`^${escaped}$`] = entry;
    map[`^${escaped}/(.+)$`] = join(folder, 'src', '$1', 'index.ts');
  }
  return map;
}

const swc = {
  swcrc: false,
  jsc: {
    parser: { syntax: 'typescript', decorators: true, tsx: true },
    transform: {
      legacyDecorator: true,
      decoratorMetadata: true,
      react: { runtime: 'automatic' },
    },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', swc] },
  moduleNameMapper: {
    ...workspaceSources(),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};
