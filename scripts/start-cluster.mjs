// npm run start:cluster: each service and the gateway as its own process, over NATS.
// Uses NATS_URL when set (with NATS_PASSWORDS_FILE, the deployables' NATS passwords its broker
// was configured with, as scripts/nats-broker.mjs writes them); otherwise a broker on
// 127.0.0.1:4222, started from PATH if none listens, with each deployable its own NATS user and
// permissions (new passwords every run, in DATA_DIR/nats-auth).
// Sign-in: KEYCLOAK_URL when set; the real Keycloak with --keycloak (fetched when missing), or by
// default when a JDK 21+ and the cached distribution are there; the embedded issuer otherwise
// (or with --embedded-issuer). With --mail, new e-mail accounts verify their address through a
// local Mailpit (EMAIL_VERIFICATION=required). With --no-build, what is built already runs.
// The local model (LOCAL_MODEL=on, the default): the embedded model server as a process of its
// own on a free port (LOCAL_MODEL_FILE, or the default model fetched into LOCAL_MODEL_CACHE in
// the background, from LOCAL_MODEL_URL with LOCAL_MODEL_SHA256 when given), given to the generation service as LOCAL_MODEL_SERVER (docs/local-model.md).
// With --replicas N (2 or more), production's shape: three nats-servers clustered (client ports
// NATS_PORT, 4222 by default, and the two after it; streams and buckets at 3 replicas) unless
// NATS_URL is set, N instances of each service and N gateways behind a round-robin entry on
// PORT; a process that dies is started again after 2 s, as Kubernetes would; DATA_DIR/cluster.json
// lists every process with its pid and ports. The one store stays single (docs/running.md).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { findJavaHome, isKeycloakCached, startKeycloak } from './keycloak.mjs';
import { startRoundRobin } from './round-robin.mjs';
import { startMailpit } from './mailpit.mjs';
import {
  natsClusterServer,
  natsIdentityEnv,
  natsServerArgs,
  readNatsPasswords,
  writeNatsAuthorization,
} from './nats-broker.mjs';
import {
  buildAll,
  cacheRoot,
  ensureInstalled,
  freePort,
  hasCommand,
  isListening,
  root,
  startChild,
  startEmbeddedIssuerProcess,
} from './workspace.mjs';

const flags = new Set(process.argv.slice(2));
// The local model's settings, checked before anything starts (as npm start's schema checks them).
const localModel = (process.env.LOCAL_MODEL || 'on').trim();
const localModelFile = process.env.LOCAL_MODEL_FILE || undefined;
// An operator's mirror of the model (or another GGUF) and its SHA-256, together or neither.
const localModelUrl = process.env.LOCAL_MODEL_URL || undefined;
const localModelSha256 = process.env.LOCAL_MODEL_SHA256 || undefined;
const localModelGpu = (process.env.LOCAL_MODEL_GPU || 'off').trim();
const localModelThreads =
  process.env.LOCAL_MODEL_THREADS || String(Math.max(1, Math.floor(availableParallelism() / 2)));
{
  const problems = [];
  if (!['on', 'off'].includes(localModel)) problems.push('LOCAL_MODEL must be on or off');
  if (!['on', 'off'].includes(localModelGpu)) problems.push('LOCAL_MODEL_GPU must be on or off');
  if (localModel === 'on' && localModelFile && !existsSync(localModelFile)) {
    problems.push(`LOCAL_MODEL_FILE must name a file that exists (${localModelFile})`);
  }
  if ((localModelUrl === undefined) !== (localModelSha256 === undefined)) {
    problems.push(
      'LOCAL_MODEL_URL and LOCAL_MODEL_SHA256 go together (a download is only used when it hashes to the digest)',
    );
  }
  if (localModelUrl !== undefined && !/^https?:\/\/\S+$/.test(localModelUrl)) {
    problems.push('LOCAL_MODEL_URL must be an http:// or https:// URL');
  }
  if (localModelSha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(localModelSha256)) {
    problems.push('LOCAL_MODEL_SHA256 must be a SHA-256 digest (64 hex digits)');
  }
  if (localModelUrl !== undefined && localModelFile !== undefined) {
    problems.push('LOCAL_MODEL_FILE and LOCAL_MODEL_URL are both set: give one');
  }
  if (!/^[1-9]\d{0,3}$/.test(localModelThreads)) {
    problems.push('LOCAL_MODEL_THREADS must be a whole number from 1');
  }
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('; ')}\n`);
    process.exit(1);
  }
}

// --replicas N: how many instances of each service and gateways (1: one each, one nats-server).
const replicasAt = process.argv.indexOf('--replicas');
const replicas = replicasAt === -1 ? 1 : Number(process.argv[replicasAt + 1]);
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 9) {
  process.stderr.write('--replicas takes a whole number from 1 to 9\n');
  process.exit(1);
}

ensureInstalled();
// --no-build: runs what is built (the browser tests' clusters, after their run's build).
if (!process.argv.includes('--no-build')) buildAll();
const { serviceNames: services } = await import('@debate/contracts');

const children = new Map();
let keycloak;

// Stopping works from the first moment (a signal while Keycloak starts included): the gateways
// and the generation instances first, then the other services, then the broker, the store, the
// local model and the issuer; a Keycloak still starting is killed as this process exits
// (scripts/keycloak.mjs).
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  // In three stages: the debates the generation instances are writing finish and are kept and
  // settled through the other services, which drain through the broker and the store.
  const stageOf = (name) =>
    /^(gateway|generation)(-\d+)?$/.test(name)
      ? 0
      : /^(nats(-\d)?|mongo|model|issuer)$/.test(name)
        ? 2
        : 1;
  const stages = [0, 1, 2].map((stage) =>
    [...children.entries()].filter(([name]) => stageOf(name) === stage).map(([, child]) => child),
  );
  const stopAll = (list) =>
    Promise.all(
      list.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
  void stopAll(stages[0])
    .then(() => stopAll(stages[1]))
    .then(() => {
      for (const child of stages[2]) child.kill('SIGTERM');
      return keycloak?.stop();
    })
    .then(() => setTimeout(() => process.exit(0), 200));
  setTimeout(() => process.exit(1), 30_000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

/** With --replicas: each supervised process's name, kind, ports and pid (cluster.json). */
const processes = new Map();
/** How long a process that died waits before it is started again (--replicas). */
const RESTART_AFTER_MS = 2_000;

/**
 * Starts `launch()` as `name`, watched: with --replicas, a process that ends by a signal this
 * script did not send, or with a code other than 0, is started again after RESTART_AFTER_MS (a
 * service stopped from outside with SIGTERM drains and exits 0: it stays stopped).
 */
function supervise(name, info, launch) {
  const child = launch();
  children.set(name, child);
  processes.set(name, { name, ...info, pid: child.pid });
  child.on('exit', (code, signal) => {
    if (children.get(name) === child) children.delete(name);
    if (stopping) {
      process.stdout.write(`[${name}] stopped\n`);
      return;
    }
    const ending = signal ?? code;
    if (replicas === 1 || code === 0) {
      process.stdout.write(`[${name}] exited (${ending}); the others keep running.\n`);
      return;
    }
    process.stdout.write(
      `[${name}] exited (${ending}); starting it again in ${RESTART_AFTER_MS / 1000} s\n`,
    );
    setTimeout(() => {
      if (stopping) return;
      const again = supervise(name, info, launch);
      process.stdout.write(`[${name}] started again, pid ${again.pid}\n`);
      writeClusterFile();
    }, RESTART_AFTER_MS);
  });
  return child;
}

const dataDir = process.env.DATA_DIR ?? join(root, '.data');
let natsUrl = process.env.NATS_URL;
/** Each deployable's NATS password; unset: the broker is not ours, and they connect anonymously. */
let natsPasswords = process.env.NATS_PASSWORDS_FILE
  ? readNatsPasswords(process.env.NATS_PASSWORDS_FILE)
  : undefined;
/** How many servers hold each stream (JETSTREAM_REPLICAS): three on the cluster started here. */
let jetstreamReplicas = process.env.JETSTREAM_REPLICAS;
if (!natsUrl && replicas > 1) {
  // Three nats-servers clustered as production's (natsClusterSettings), each its own store.
  const natsBase = Number(process.env.NATS_PORT ?? 4222);
  const ports = [natsBase, natsBase + 1, natsBase + 2];
  for (const port of ports) {
    if (await isListening(port)) {
      process.stderr.write(
        `Something listens on 127.0.0.1:${port}: the cluster's nats-servers take NATS_PORT ` +
          `(${natsBase}) and the two after it; set NATS_PORT, or NATS_URL to use a running cluster.\n`,
      );
      process.exit(1);
    }
  }
  if (!hasCommand('nats-server')) {
    process.stderr.write(
      'nats-server is not installed: install it (apt-get install nats-server) or set NATS_URL.\n',
    );
    process.exit(1);
  }
  const { configFile: authorizationFile, passwords } = await writeNatsAuthorization(
    join(dataDir, 'nats-auth'),
  );
  natsPasswords = passwords;
  const routePorts = [await freePort(), await freePort(), await freePort()];
  const routes = routePorts.map((port) => `nats-route://127.0.0.1:${port}`);
  const monitorUrls = [];
  for (const [i, port] of ports.entries()) {
    const name = `nats-${i + 1}`;
    const monitorPort = await freePort();
    const args = await natsClusterServer({
      name,
      port,
      monitorPort,
      routePort: routePorts[i],
      routes,
      store: join(dataDir, name),
      authorizationFile,
    });
    supervise(name, { kind: 'nats', port, monitorPort }, () =>
      startChild(name, 'nats-server', args),
    );
    monitorUrls.push(`http://127.0.0.1:${monitorPort}/healthz`);
  }
  // Healthy: in the cluster, JetStream current, so the services can make their streams at 3.
  const deadline = Date.now() + 30_000;
  for (const url of monitorUrls) {
    while (
      !(await fetch(url).then(
        (response) => response.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) {
        process.stderr.write(
          `the nats-servers did not form a healthy cluster within 30 s (${url})\n`,
        );
        stop();
        await new Promise(() => {});
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  natsUrl = ports.map((port) => `nats://127.0.0.1:${port}`).join(',');
  jetstreamReplicas ??= '3';
} else if (!natsUrl) {
  natsUrl = 'nats://127.0.0.1:4222';
  if (!(await isListening(4222))) {
    if (!hasCommand('nats-server')) {
      process.stderr.write(
        'Nothing listens on 127.0.0.1:4222 and nats-server is not installed: ' +
          'install it (apt-get install nats-server) or set NATS_URL.\n',
      );
      process.exit(1);
    }
    const store = join(root, '.data', 'nats');
    mkdirSync(store, { recursive: true });
    const { configFile, passwords } = await writeNatsAuthorization(join(dataDir, 'nats-auth'));
    natsPasswords = passwords;
    children.set(
      'nats',
      startChild('nats', 'nats-server', natsServerArgs({ port: 4222, store, configFile })),
    );
    const deadline = Date.now() + 10_000;
    while (!(await isListening(4222))) {
      if (Date.now() > deadline) {
        process.stderr.write('nats-server did not start within 10 s\n');
        process.exit(1);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

// Documents: MONGO_URL when set; otherwise whatever listens on MONGO_PORT (27017), or the
// embedded MongoDB-compatible server started there with its data in DATA_DIR/mongo.
let mongoUrl = process.env.MONGO_URL;
if (!mongoUrl) {
  const mongoPort = Number(process.env.MONGO_PORT ?? 27017);
  mongoUrl = `mongodb://127.0.0.1:${mongoPort}`;
  if (!(await isListening(mongoPort))) {
    const dbPath = join(process.env.DATA_DIR ?? join(root, '.data'), 'mongo');
    children.set(
      'mongo',
      startChild('mongo', process.execPath, [
        'libs/embedded-mongo/bin/embedded-mongo.js',
        '--port',
        String(mongoPort),
        '--dbpath',
        dbPath,
      ]),
    );
    const deadline = Date.now() + 10_000;
    while (!(await isListening(mongoPort))) {
      if (Date.now() > deadline || children.get('mongo')?.exitCode !== null) {
        process.stderr.write(
          `the embedded MongoDB-compatible server did not start on ${mongoPort}\n`,
        );
        process.exit(1);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

const env = {
  NATS_URL: natsUrl,
  MONGO_URL: mongoUrl,
  DATA_DIR: dataDir,
  ...(jetstreamReplicas ? { JETSTREAM_REPLICAS: jetstreamReplicas } : {}),
};
const port = process.env.PORT ?? '3000';
let authIssuer = process.env.AUTH_ISSUER_URL;
// --mail: new e-mail accounts verify their address, the realm's mail going to a local Mailpit
// (scripts/mailpit.mjs) whose page shows it; without it nobody is asked, as with `npm start`.
let mail = {};
if (flags.has('--mail')) {
  const mailpit = await startMailpit({
    smtpPort: (await isListening(1025)) ? undefined : 1025,
    httpPort: (await isListening(8025)) ? undefined : 8025,
  });
  process.stdout.write(`Mail: read what the realm sends at ${mailpit.url}\n`);
  mail = {
    SMTP_HOST: mailpit.smtpHost,
    SMTP_PORT: String(mailpit.smtpPort),
    SMTP_FROM: 'noreply@debate.localhost',
  };
  env.EMAIL_VERIFICATION = 'required';
}
const wantsKeycloak =
  !process.env.KEYCLOAK_URL &&
  !flags.has('--embedded-issuer') &&
  (flags.has('--keycloak') || (isKeycloakCached() && findJavaHome({ install: false })));
if (process.env.KEYCLOAK_URL) {
  // An operator's Keycloak: the identity service reads KEYCLOAK_URL and KEYCLOAK_CLIENT_SECRET.
  authIssuer ??= `${process.env.KEYCLOAK_PUBLIC_URL ?? process.env.KEYCLOAK_URL}/realms/${process.env.KEYCLOAK_REALM ?? 'debate'}`;
} else if (wantsKeycloak) {
  // The real Keycloak, its data (and the identity-service secret its realm was imported with)
  // in DATA_DIR/keycloak, so that users survive a restart as they do with the embedded issuer.
  const keycloakDir = join(dataDir, 'keycloak');
  mkdirSync(keycloakDir, { recursive: true });
  const secretFile = join(keycloakDir, 'identity-client-secret');
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(24).toString('base64url'));
  const clientSecret = readFileSync(secretFile, 'utf8').trim();
  const brokers = Object.fromEntries(
    ['GOOGLE', 'GITHUB'].flatMap((provider) =>
      ['CLIENT_ID', 'CLIENT_SECRET', 'URL', 'API_URL']
        .map((name) => `${provider}_${name}`)
        .filter((name) => process.env[name])
        .map((name) => [name, process.env[name]]),
    ),
  );
  process.stdout.write('Starting Keycloak (scripts/keycloak.mjs)…\n');
  keycloak = await startKeycloak({
    logFile: join(keycloakDir, 'keycloak.log'),
    dataDir: keycloakDir,
    port: Number(process.env.KEYCLOAK_PORT ?? 8080),
    managementPort: Number(process.env.KEYCLOAK_MANAGEMENT_PORT ?? 9000),
    env: {
      // The realm takes one origin; the embedded issuer's WEB_ORIGIN may list several.
      WEB_ORIGIN: (process.env.WEB_ORIGIN ?? `http://localhost:${port}`).split(',')[0]?.trim(),
      IDENTITY_CLIENT_SECRET: clientSecret,
      ...brokers,
      ...mail,
    },
  }).catch((error) => {
    process.stderr.write(`${error.message}\n`);
    for (const child of children.values()) child.kill('SIGTERM');
    process.exit(1);
  });
  Object.assign(env, { KEYCLOAK_URL: keycloak.url, KEYCLOAK_CLIENT_SECRET: clientSecret });
  authIssuer ??= keycloak.realmUrl;
} else {
  // The embedded Keycloak-compatible issuer (libs/embedded-keycloak), a process of its own on
  // ISSUER_PORT (8180) in Keycloak's place, started before the services: the identity service
  // signs in against it over HTTP with the identity-service secret it was started with.
  const issuer = await startEmbeddedIssuerProcess({
    mongoUrl,
    dataDir,
    env: { ...mail, ISSUER_PORT: process.env.ISSUER_PORT ?? '8180' },
  }).catch((error) => {
    process.stderr.write(`${error.message}\n`);
    for (const child of children.values()) child.kill('SIGTERM');
    process.exit(1);
  });
  children.set('issuer', issuer.child);
  Object.assign(env, { KEYCLOAK_URL: issuer.url, KEYCLOAK_CLIENT_SECRET: issuer.secret });
  authIssuer ??= `${issuer.url}/realms/debate`;
}
// The local model, before the services: its own process (libs/embedded-model's bin) on a free
// port of 127.0.0.1, listening at once while it fetches or loads the model; until its /health
// says ready the generation service offers the offline speaker and the catalogue's models.
// LOCAL_MODEL_SERVER given: that server, and none is started.
let localModelServer = process.env.LOCAL_MODEL_SERVER || undefined;
if (localModel === 'on' && !localModelServer) {
  const modelPort = await freePort();
  const source = localModelFile
    ? ['--model-file', localModelFile]
    : [
        '--cache-dir',
        process.env.LOCAL_MODEL_CACHE || join(cacheRoot, 'models'),
        ...(localModelUrl && localModelSha256
          ? ['--model-url', localModelUrl, '--model-sha256', localModelSha256]
          : []),
      ];
  children.set(
    'model',
    startChild('model', process.execPath, [
      'libs/embedded-model/bin/embedded-model.js',
      '--port',
      String(modelPort),
      ...source,
      '--threads',
      localModelThreads,
      ...(localModelGpu === 'on' ? ['--gpu'] : []),
    ]),
  );
  const deadline = Date.now() + 30_000;
  while (!(await isListening(modelPort))) {
    if (Date.now() > deadline || children.get('model')?.exitCode !== null) {
      // Debates go on with the offline speaker: the rest of the cluster starts all the same.
      process.stderr.write(
        `the embedded model server did not start on ${modelPort}: debates use the offline speaker (LOCAL_MODEL=off skips it)\n`,
      );
      children.get('model')?.kill('SIGTERM');
      children.delete('model');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (children.has('model')) localModelServer = `http://127.0.0.1:${modelPort}`;
}

// Each process its own operations port (health probes, /metrics): the gateway OPS_PORT
// (9464), then the services in order; with --replicas, the next instances after them the same way.
const opsBase = Number(process.env.OPS_PORT ?? 9464);
const opsPortOf = (instance, index) => opsBase + instance * (services.length + 1) + index;
const nameOf = (deployable, instance) =>
  replicas === 1 ? deployable : `${deployable}-${instance + 1}`;
for (let instance = 0; instance < replicas; instance += 1) {
  for (const [index, service] of services.entries()) {
    const opsPort = opsPortOf(instance, index + 1);
    supervise(nameOf(service, instance), { kind: 'service', service, opsPort }, () =>
      startChild(
        nameOf(service, instance),
        process.execPath,
        [`services/${service}/dist/main.js`],
        {
          ...env,
          ...natsIdentityEnv(natsPasswords, service),
          OPS_PORT: String(opsPort),
          ...(service === 'generation' && localModelServer
            ? { LOCAL_MODEL_SERVER: localModelServer }
            : {}),
        },
      ),
    );
  }
}
// One gateway on PORT; with --replicas, each on a port of its own behind the round-robin entry.
const gatewayPorts =
  replicas === 1
    ? [Number(port)]
    : await Promise.all(Array.from({ length: replicas }, () => freePort()));
for (const [instance, gatewayPort] of gatewayPorts.entries()) {
  const opsPort = opsPortOf(instance, 0);
  supervise(nameOf('gateway', instance), { kind: 'gateway', port: gatewayPort, opsPort }, () =>
    startChild(nameOf('gateway', instance), process.execPath, ['gateway/dist/main.js'], {
      ...env,
      ...natsIdentityEnv(natsPasswords, 'gateway'),
      OPS_PORT: String(opsPort),
      AUTH_ISSUER_URL: authIssuer,
      ...(replicas === 1 ? {} : { PORT: String(gatewayPort), HOST: '127.0.0.1' }),
    }),
  );
}
if (replicas > 1) {
  await startRoundRobin({
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(port),
    upstreams: () => gatewayPorts,
  });
}

/** DATA_DIR/cluster.json: the entry point, the servers and every supervised process. */
function writeClusterFile() {
  const file = {
    entry: `http://127.0.0.1:${port}`,
    natsUrls: natsUrl.split(','),
    mongoUrl,
    processes: [...processes.values()],
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'cluster.json'), `${JSON.stringify(file, null, 2)}\n`);
}
writeClusterFile();

process.stdout.write(
  `Cluster on ${natsUrl} (${natsPasswords ? 'each deployable its own NATS user' : "NATS without users: the broker is not this script's"}), documents at ${mongoUrl}, sign-in ${keycloak ? `with Keycloak at ${keycloak.url} (data and log in ${keycloak.dataDir})` : process.env.KEYCLOAK_URL ? `with Keycloak at ${process.env.KEYCLOAK_URL}` : 'with the embedded issuer (npm run start:cluster -- --keycloak for the real Keycloak)'}, ${localModelServer ? `the local model at ${localModelServer}` : 'no local model'}; ${replicas > 1 ? `${replicas} instances of each service and ${replicas} gateways, one entry` : 'gateway'} at http://localhost:${port}\n`,
);
for (const [name, child] of children) {
  const opsPort = processes.get(name)?.opsPort;
  const operations = opsPort ? `, operations http://127.0.0.1:${opsPort}` : '';
  process.stdout.write(`  ${name.padEnd(13)} pid ${child.pid}${operations}\n`);
  // The supervised ones say themselves when they exit (supervise).
  if (processes.has(name)) continue;
  child.on('exit', (code, signal) => {
    process.stdout.write(
      stopping
        ? `[${name}] stopped\n`
        : `[${name}] exited (${signal ?? code}); the others keep running.\n`,
    );
    children.delete(name);
  });
}
