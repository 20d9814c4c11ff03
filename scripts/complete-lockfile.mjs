// Records every platform binary that an installed package declares as optional in package-lock.json.
//
// The npm registry reachable from this project's machines does not serve some packages built for other
// platforms (e.g. @swc/core-darwin-arm64 answers 404), so `npm install` cannot write their lock entries,
// and `npm ci` then refuses the lock ("Missing: … from lock file"). This script adds the missing entries,
// with the os/cpu read from the package name, so that npm skips them on a platform that does not match.
// Run it after any `npm install` that changes the lock: `node scripts/complete-lockfile.mjs`.
//
// It also keeps llama.cpp's GPU builds out of `npm ci`: node-llama-cpp declares every build as an
// optional dependency, and on Linux x64 npm would install the CUDA (538 MB) and Vulkan (81 MB)
// builds beside the 29 MB CPU one. Their entries are recorded for no platform (os "none"), so npm
// skips them; the builds for other CPUs are narrowed to the CPU their name says. A machine with a
// GPU asks for its build by hand (docs/local-model.md).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './workspace.mjs';

const OS = [
  'darwin',
  'linux',
  'win32',
  'freebsd',
  'android',
  'openharmony',
  'sunos',
  'aix',
  'netbsd',
  'openbsd',
];
const CPU = [
  'arm64',
  'x64',
  'ia32',
  'arm',
  'ppc64',
  's390x',
  'riscv64',
  'loong64',
  'mips64el',
  'wasm32',
];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = OS.find((candidate) => tokens.includes(candidate));
  const cpu = CPU.find((candidate) => tokens.includes(candidate));
  const libc =
    tokens.includes('musl') || tokens.includes('musleabihf')
      ? 'musl'
      : tokens.includes('gnu') || tokens.includes('gnueabihf')
        ? 'glibc'
        : undefined;
  return { os, cpu, libc };
}

const lockPath = join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;
let added = 0;

for (const [path, entry] of Object.entries(packages)) {
  if (!path || !entry.optionalDependencies) continue;
  for (const [dependency, range] of Object.entries(entry.optionalDependencies)) {
    const nested = `${path}/node_modules/${dependency}`;
    const hoisted = `node_modules/${dependency}`;
    if (packages[nested] || packages[hoisted]?.version === range) continue;
    const { os, cpu, libc } = platformOf(dependency);
    if (!os || !cpu) continue; // not a platform binary: leave it to npm
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(range)) {
      throw new Error(`${path} declares ${dependency}@${range}; expected an exact version`);
    }
    packages[packages[hoisted] ? nested : hoisted] = {
      version: range,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [os],
      cpu: [cpu],
      ...(libc ? { libc: [libc] } : {}),
    };
    added += 1;
  }
}

let gpuBuilds = 0;
for (const [path, entry] of Object.entries(packages)) {
  const name = path.match(/^node_modules\/(@node-llama-cpp\/[^/]+)$/)?.[1];
  if (!name) continue;
  if (/-(cuda|cuda-ext|vulkan|metal)$/.test(name) && !name.includes('mac-arm64')) {
    if (entry.os?.[0] !== 'none') gpuBuilds += 1;
    entry.os = ['none'];
    continue;
  }
  const { cpu } = platformOf(name.replace(/armv7l$/, 'arm'));
  if (cpu) entry.cpu = [cpu];
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
process.stdout.write(
  `package-lock.json: ${added} platform entr${added === 1 ? 'y' : 'ies'} added, ${gpuBuilds} llama.cpp GPU build${gpuBuilds === 1 ? '' : 's'} left out\n`,
);
