// What each image holds, checked without a container engine: for every deployable, the
// runtime stage of deploy/docker/Dockerfile is laid out in a temporary folder as that file
// lays it out (the manifests, `npm ci --omit=dev --workspace <package>`, the dist of the project
// and of the libraries it runs with, the web build for the gateway), then started there with a
// real NATS and store (and, for the identity service, the embedded issuer in Keycloak's place): it
// must report ready on its operations port. A dependency missing from a package.json, or a file
// the image does not carry, fails here instead of in production; so does an image that would
// carry a test-only package (the embedded store or issuer) among its runtime dependencies.
// The seventh image, the embedded model server (the Dockerfile's model stage, compose's
// local-model profile), is laid out the same way and started on a model: the tests' tiny GGUF
// (scripts/tiny-model.mjs) when it can be made, answering /health 200 once llama.cpp has loaded
// it; it must carry llama.cpp's CPU build and none of the GPU builds (CUDA, Vulkan), which only
// a machine that asks for one installs.
//
// The images' Node is checked first: every stage of the Dockerfile is FROM its NODE_IMAGE, pinned
// to a release (node:X.Y.Z-…), whose major is the one of the Node running this check (the Node
// the layouts are started on, and the tests run on) and which package.json's engines accepts.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runtimeWorkspaces } from '../deploy/docker/runtime-workspaces.mjs';
import { root, startEmbeddedIssuerProcess } from './workspace.mjs';

const { start: startStore } = await import('@debate/embedded-mongo');
const { startNatsServer } = await import('@debate/nest/testing');

const deployables = [
  ['identity', 'services/identity', '@debate/identity-service'],
  ['usage', 'services/usage', '@debate/usage-service'],
  ['generation', 'services/generation', '@debate/generation-service'],
  ['debates', 'services/debates', '@debate/debates-service'],
  ['community', 'services/community', '@debate/community-service'],
  ['gateway', 'gateway', '@debate/gateway'],
];
const workspaces = ['libs', 'services']
  .flatMap((group) => readdirSync(join(root, group)).map((name) => `${group}/${name}`))
  .concat(['platform', 'gateway', 'web']);

/** What only the tests and the launchers use: never in an image. */
const testOnlyPackages = [
  'libs/embedded-mongo',
  'libs/embedded-keycloak',
  'libs/testing',
  'platform',
  // The local model is an image of its own (below), never part of a service's.
  'libs/embedded-model',
];
/** The model image: the Dockerfile's model stage. */
const modelImage = ['model', 'libs/embedded-model', '@debate/embedded-model'];

const failures = [];

/** Whether version (X.Y.Z) satisfies an npm range made of comparators (">=24.11", "<25 >=24"). */
function satisfies(version, range) {
  const parse = (text) => text.split('.').map((part) => Number(part));
  const compare = (a, b) => {
    for (let i = 0; i < 3; i += 1) {
      if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
    }
    return 0;
  };
  const have = parse(version);
  return range
    .trim()
    .split(/\s+/)
    .every((comparator) => {
      const match = /^(>=|<=|>|<|=)?v?(\d+(?:\.\d+){0,2})$/.exec(comparator);
      if (!match) throw new Error(`cannot read the range ${range}`);
      const order = compare(have, parse(match[2]));
      return (
        { '>=': order >= 0, '<=': order <= 0, '>': order > 0, '<': order < 0 }[match[1]] ??
        order === 0
      );
    });
}

// The images' Node.
{
  const dockerfile = readFileSync(join(root, 'deploy/docker/Dockerfile'), 'utf8');
  const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1] ?? '';
  const version = /^node:(\d+\.\d+\.\d+)(?:-[a-z0-9.-]+)?$/.exec(image)?.[1];
  const froms = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((match) => match[1]);
  const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node;
  const running = process.versions.node;
  if (!version) {
    failures.push(
      `the Dockerfile's NODE_IMAGE (${image || 'none'}) is not node:X.Y.Z-…, a release`,
    );
  } else {
    if (version.split('.')[0] !== running.split('.')[0]) {
      failures.push(
        `the images run Node ${version}, but this check (and the tests) run Node ${running}: ` +
          'a different major',
      );
    }
    try {
      if (engines && !satisfies(version, engines)) {
        failures.push(
          `the images run Node ${version}, which package.json's engines (${engines}) refuses`,
        );
      }
    } catch (error) {
      failures.push(`package.json's engines: ${error.message}`);
    }
    if (version !== running) {
      process.stdout.write(`note: the images run Node ${version}, this check Node ${running}\n`);
    }
  }
  for (const from of froms) {
    if (from !== '${NODE_IMAGE}')
      failures.push(`a stage of the Dockerfile is FROM ${from}, not NODE_IMAGE`);
  }
  if (froms.length === 0) failures.push('the Dockerfile has no FROM');
  if (failures.length === 0) process.stdout.write(`images' Node: ${image}\n`);
  // `npm ci` in the image reads every workspace's manifest: both install stages copy exactly the
  // workspaces this check lays out.
  const build = [...dockerfile.matchAll(/^COPY (\S+)\/package\.json \1\/$/gm)].map((m) => m[1]);
  const deps = [
    ...dockerfile.matchAll(/^COPY --from=build \/workspace\/(\S+)\/package\.json \1\/$/gm),
  ].map((m) => m[1]);
  const expected = [...workspaces].sort().join(', ');
  for (const [stage, copied] of [
    ['build', build],
    ['deps', deps],
  ]) {
    if ([...copied].sort().join(', ') !== expected) {
      failures.push(
        `the Dockerfile's ${stage} stage copies the manifests of ${copied.join(', ')}; the workspaces are ${expected}`,
      );
    }
  }
}

const work = mkdtempSync(join(tmpdir(), 'image-check-'));
const store = await startStore({ port: 0, dbPath: join(work, 'mongo') });
const nats = await startNatsServer();
const issuer = await startEmbeddedIssuerProcess({
  mongoUrl: store.uri,
  dataDir: join(work, 'issuer'),
});

async function readyWithin(url, ms) {
  const deadline = Date.now() + ms;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/health/ready`);
      if (response.ok) return true;
      last = await response.text();
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return last;
}

try {
  for (const [project, projectDir, packageName] of deployables) {
    if (process.env.ONLY && process.env.ONLY !== project) continue;
    const app = join(work, project);
    // The deps stage: the manifests, then the project's production dependencies only.
    mkdirSync(app, { recursive: true });
    cpSync(join(root, 'package.json'), join(app, 'package.json'));
    cpSync(join(root, 'package-lock.json'), join(app, 'package-lock.json'));
    for (const dir of workspaces) {
      mkdirSync(join(app, dir), { recursive: true });
      cpSync(join(root, dir, 'package.json'), join(app, dir, 'package.json'));
    }
    const install = spawnSync(
      'npm',
      ['ci', '--omit=dev', `--workspace=${packageName}`, '--no-audit', '--no-fund'],
      { cwd: app, encoding: 'utf8' },
    );
    if (install.status !== 0) {
      failures.push(`${project}: npm ci --omit=dev failed\n${install.stderr}`);
      continue;
    }
    // The build stage's /out: the dist of the project and of the libraries it runs with, the
    // web app.
    const carried = runtimeWorkspaces(packageName);
    const testOnly = carried.filter((dir) => testOnlyPackages.includes(dir));
    if (testOnly.length > 0) {
      failures.push(
        `${project}: its runtime dependencies reach ${testOnly.join(', ')} (test-only)`,
      );
    }
    for (const dir of carried) {
      cpSync(join(root, dir, 'dist'), join(app, dir, 'dist'), { recursive: true });
    }
    if (project === 'gateway') {
      cpSync(join(root, 'web/dist'), join(app, 'web/dist'), { recursive: true });
    }
    const opsPort = 19_464 + deployables.findIndex(([name]) => name === project);
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: join(app, projectDir),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        NATS_URL: nats.url,
        MONGO_URL: store.uri,
        OPS_PORT: String(opsPort),
        OPS_HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        // The identity service signs in against a Keycloak: the embedded issuer stands in.
        ...(project === 'identity'
          ? { KEYCLOAK_URL: issuer.url, KEYCLOAK_CLIENT_SECRET: issuer.secret }
          : {}),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    process.stderr.write(`[${project}] installed, starting\n`);
    const ready = await readyWithin(`http://127.0.0.1:${opsPort}`, 20_000);
    process.stderr.write(`[${project}] ready: ${ready === true}, stopping\n`);
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    process.stderr.write(`[${project}] stopped\n`);
    if (ready === true) process.stdout.write(`image of ${project}: starts and is ready\n`);
    else failures.push(`${project}: not ready (${ready})\n${stderr.slice(-2000)}`);
  }
  if (!process.env.ONLY || process.env.ONLY === 'model') await checkModelImage();
} finally {
  issuer.child.kill('SIGTERM');
  await nats.stop();
  await store.stop();
  rmSync(work, { recursive: true, force: true });
}

/**
 * The model stage: libs/embedded-model's production dependencies and dist, started on the tests'
 * tiny model (or, without one, on a file that is no model, when it must still answer /health
 * with the failure), as the model stage runs it.
 */
async function checkModelImage() {
  const [project, projectDir, packageName] = modelImage;
  const app = join(work, project);
  mkdirSync(app, { recursive: true });
  cpSync(join(root, 'package.json'), join(app, 'package.json'));
  cpSync(join(root, 'package-lock.json'), join(app, 'package-lock.json'));
  for (const dir of workspaces) {
    mkdirSync(join(app, dir), { recursive: true });
    cpSync(join(root, dir, 'package.json'), join(app, dir, 'package.json'));
  }
  const install = spawnSync(
    'npm',
    ['ci', '--omit=dev', `--workspace=${packageName}`, '--no-audit', '--no-fund'],
    { cwd: app, encoding: 'utf8' },
  );
  if (install.status !== 0) {
    failures.push(`${project}: npm ci --omit=dev failed\n${install.stderr}`);
    return;
  }
  const builds = readdirSync(join(app, 'node_modules/@node-llama-cpp'), { withFileTypes: true })
    .map((entry) => entry.name)
    .filter((name) => !name.startsWith('.'));
  const gpu = builds.filter((name) => /cuda|vulkan/.test(name));
  if (gpu.length > 0) {
    failures.push(`${project}: the image carries llama.cpp's GPU builds ${gpu.join(', ')}`);
  }
  if (process.arch === 'x64' && process.platform === 'linux' && !builds.includes('linux-x64')) {
    failures.push(`${project}: the image lacks llama.cpp's CPU build (linux-x64): ${builds}`);
  }
  // The server and the one schema it shares with its client (/health's, in the contracts).
  const carried = runtimeWorkspaces(packageName);
  const shared = [projectDir, 'libs/contracts'];
  if ([...carried].sort().join(' ') !== [...shared].sort().join(' ')) {
    failures.push(`${project}: it carries ${carried.join(', ')}, not ${shared.join(' and ')}`);
  }
  for (const dir of carried) {
    cpSync(join(root, dir, 'dist'), join(app, dir, 'dist'), { recursive: true });
  }
  // The tests' tiny model when it can be made; else a file that is no model.
  const tiny = existsSync(join(root, 'scripts/tiny-model.mjs'))
    ? spawnSync(process.execPath, ['scripts/tiny-model.mjs'], { cwd: root, encoding: 'utf8' })
    : undefined;
  const tinyFile = tiny?.status === 0 ? tiny.stdout.trim().split('\n').at(-1) : undefined;
  const modelFile = tinyFile && existsSync(tinyFile) ? tinyFile : join(work, 'not-a-model.gguf');
  if (modelFile !== tinyFile) writeFileSync(modelFile, 'not a GGUF model');
  const port = 18_090;
  const child = spawn(
    process.execPath,
    ['dist/cli.js', '--port', String(port), '--model-file', modelFile, '--threads', '1'],
    {
      cwd: join(app, projectDir),
      env: { PATH: process.env.PATH, NODE_ENV: 'production', HOME: join(work, 'home') },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  process.stderr.write(`[${project}] installed, starting on ${modelFile}\n`);
  const expected = modelFile === tinyFile ? 'ready' : 'failed';
  const deadline = Date.now() + 60_000;
  let last = 'no answer';
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      const body = await response.json();
      last = `${response.status} ${JSON.stringify(body)}`;
      if (body.status === expected) break;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (child.exitCode === null) child.kill('SIGTERM');
  await exited;
  if (!last.includes(`"status":"${expected}"`)) {
    failures.push(`${project}: /health did not say ${expected} (${last})\n${stderr.slice(-2000)}`);
  } else if (expected === 'ready') {
    process.stdout.write(`image of ${project}: starts, loads the tiny model and is ready\n`);
  } else {
    process.stdout.write(
      `image of ${project}: starts and answers /health (no tiny model to load: ` +
        'scripts/tiny-model.mjs is missing or failed)\n',
    );
  }
}

if (failures.length > 0) {
  process.stderr.write(`\n${failures.join('\n\n')}\n`);
  process.exit(1);
}
