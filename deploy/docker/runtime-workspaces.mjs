// The workspace folders a deployable runs from: its own and those of every @debate/* package it
// reaches through `dependencies` (never devDependencies, so the embedded store and the embedded
// issuer, which only tests and the launchers use, stay out of the images). The Dockerfile copies
// exactly these folders' dist; scripts/check-images.mjs lays the images out with the same list.
// The model image (@debate/embedded-model) is one folder: the model server depends on no other
// workspace, and no service depends on it (it reaches them over HTTP, as LOCAL_MODEL_SERVER).
//
//   node deploy/docker/runtime-workspaces.mjs @debate/gateway          → gateway libs/contracts libs/nest
//   node deploy/docker/runtime-workspaces.mjs @debate/embedded-model   → libs/embedded-model
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every workspace package of the root package.json: name → folder (relative to the root). */
function workspacePackages() {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const folders = workspaces.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(pattern.slice(0, -2), entry.name))
      : [pattern],
  );
  const packages = new Map();
  for (const folder of folders) {
    const manifest = join(root, folder, 'package.json');
    if (!existsSync(manifest)) continue;
    const parsed = JSON.parse(readFileSync(manifest, 'utf8'));
    packages.set(parsed.name, { folder: relative(root, join(root, folder)), manifest: parsed });
  }
  return packages;
}

/** The folders `packageName` runs from, itself first. */
export function runtimeWorkspaces(packageName) {
  const packages = workspacePackages();
  const needed = [];
  const visit = (name) => {
    const found = packages.get(name);
    if (!found || needed.includes(found.folder)) return;
    needed.push(found.folder);
    for (const dependency of Object.keys(found.manifest.dependencies ?? {})) visit(dependency);
  };
  visit(packageName);
  if (needed.length === 0) throw new Error(`${packageName} is not a package of this workspace`);
  return needed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [packageName] = process.argv.slice(2);
  if (!packageName) {
    process.stderr.write('usage: node deploy/docker/runtime-workspaces.mjs <package name>\n');
    process.exit(2);
  }
  process.stdout.write(`${runtimeWorkspaces(packageName).join(' ')}\n`);
}
