// Checks docker-compose.yml without a container engine: `docker-compose config` (Debian's 1.29,
// or Compose v2 and later with COMPOSE='docker compose') renders it, and the rendered services
// are checked for what would break a real start:
//
// - every variable the file reads is listed in .env.example, and every one listed is read;
// - each secret is empty in .env.example, compose refuses to render while a required one is
//   empty, and each secret reaches exactly the services that need it, intact, and no other;
// - each service with a database signs in as its own user: MONGO_USERNAME is its name,
//   MONGO_PASSWORD exactly its own secret (the service puts both into the URL percent-encoded),
//   and MONGO_URL names the host mongo, its own database as authSource and no credentials;
//   the MongoDB passwords of the check are full of @ / : % (any password must work);
// - each deployable is built from deploy/docker/Dockerfile with its own project and package,
//   gets the NATS URL, is health-checked and starts once its dependencies are healthy;
// - every `service_healthy` dependency has a healthcheck, and every service another one's
//   environment points at (nats://nats, mongodb://mongo, http://keycloak, …) is a healthy
//   dependency of it, directly or through another;
// - the images are pinned to a release, Keycloak's to the one the tests run;
// - every placeholder of the realm file without a default reaches Keycloak's environment, and
//   every one (defaults too) is set in the environment Keycloak's entrypoint starts kc.sh with;
// - the identity service asks for e-mail verification (EMAIL_VERIFICATION=required) and gets no
//   SMTP_* (Keycloak sends the mail; the service reads no SMTP_*), nor does any service but
//   Keycloak; the gateway gets RATE_LIMITS and TRUST_PROXY from the .env intact, empty unless set;
// - the generation service, and no other, gets MODEL_CATALOG from the .env intact (JSON with
//   quotes, spaces, colons and slashes), empty unless set; the catalogue docs/deploy-compose.md
//   shows, with its docker-compose.override.yml, renders, parses with the contracts' ModelCatalog,
//   and gives the generation service, and no other, every key its entries name (compose refusing
//   to render while one is empty, naming it);
// - Keycloak's healthcheck, run here against stand-ins of its two ports, passes when readiness
//   and the realm's discovery document answer 200, and fails on a 503 from either (readiness
//   even when its body says "UP", the realm while its import is in progress);
// - Keycloak's entrypoint, run here with a stand-in kc.sh on the rendered environment, imports a
//   provider of the realm enabled exactly when its client id is set, and refuses a client id
//   without its secret; it sets SMTP_AUTH=true exactly when SMTP_USER is set, refuses
//   SMTP_PASSWORD without SMTP_USER, and the realm's smtpServer, filled from that environment as
//   Keycloak's import fills it, is the server the .env names (compose's defaults for the rest);
// - the local model (the optional profile local-model) is the model stage of the Dockerfile with
//   libs/embedded-model's project and package, health-checked, inside the network only (no port
//   on the host: it has no authentication), its download on a named volume; the generation
//   service, and no other, gets LOCAL_MODEL_SERVER, empty unless the .env names the server, and
//   the address docs/deploy-compose.md gives (http://model:8090) intact when it does. The file is
//   rendered with that profile on, so every check above covers the model service too;
// - each deployable signs in to NATS as its own user, over TLS, and the broker, run here on
//   stand-ins of its containers, lets each in and keeps it to its own subjects
//   (check-compose-nats.mjs says how).
//
// With an .env beside the file (or the file given as the argument), that .env is checked too: it
// renders, its MongoDB passwords arrive intact as the services' MONGO_PASSWORD, each provider's
// client id has its secret, SMTP_PASSWORD has SMTP_USER, RATE_LIMITS is empty, off or JSON, the
// identity-service client secret is long enough, and MODEL_CATALOG, as the generation service
// receives it, parses with the contracts' ModelCatalog and every key variable its entries name
// reaches the generation service set (through docker-compose.override.yml when there is one, as
// compose reads it). The .env of the check itself, MongoDB passwords full of @ / : % and all, is
// checked the same way.
//
// The catalogue is parsed with the contracts' ModelCatalog (the generation service's own schema)
// when the workspace is built (`npx nx build contracts`); on a fresh clone, before any install, it
// is only checked to be a JSON array of entries, and the summary says so.
//
//   node scripts/check-compose.mjs [path/to/.env]
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkNatsBroker, checkNatsFiles } from './check-compose-nats.mjs';
import { KEYCLOAK_VERSION } from './keycloak.mjs';
import { natsPasswordVariable } from './nats-config.mjs';
import { root } from './workspace.mjs';

/** The local model's service, its profile, and where the generation service is told it is. */
const LOCAL_MODEL = {
  service: 'model',
  profile: 'local-model',
  dir: 'libs/embedded-model',
  project: 'embedded-model',
  url: 'http://model:8090',
};

/** The deployables and their folders. */
const DEPLOYABLES = {
  identity: 'services/identity',
  usage: 'services/usage',
  generation: 'services/generation',
  debates: 'services/debates',
  community: 'services/community',
  gateway: 'gateway',
};
/**
 * The services with a MongoDB database (and user) of their own, each named after it. (An
 * operator runs this script on a fresh clone, before any install: hence not the contracts'
 * serviceNames, which need a build.)
 */
const DATABASE_OWNERS = Object.keys(DEPLOYABLES).filter((name) => name !== 'gateway');
const mongoPasswordVariable = (service) => `MONGO_${service.toUpperCase()}_PASSWORD`;
/** The deployables with a NATS user of their own (the contracts' natsDeployables): all six. */
const NATS_USERS = Object.keys(DEPLOYABLES);

/**
 * Every secret: whether compose must refuse to start without it, and exactly where it must
 * arrive ([service, environment variable]). Anywhere else, it has leaked.
 */
const SECRETS = {
  MONGO_ROOT_PASSWORD: { required: true, to: [['mongo', 'MONGO_INITDB_ROOT_PASSWORD']] },
  ...Object.fromEntries(
    DATABASE_OWNERS.map((service) => [
      mongoPasswordVariable(service),
      {
        required: true,
        to: [
          ['mongo', mongoPasswordVariable(service)],
          [service, 'MONGO_PASSWORD'],
        ],
      },
    ]),
  ),
  ...Object.fromEntries(
    NATS_USERS.map((deployable) => [
      natsPasswordVariable(deployable),
      {
        required: true,
        to: [
          ['nats', natsPasswordVariable(deployable)],
          [deployable, 'NATS_PASSWORD'],
        ],
      },
    ]),
  ),
  KEYCLOAK_DB_PASSWORD: {
    required: true,
    to: [
      ['keycloak-db', 'POSTGRES_PASSWORD'],
      ['keycloak', 'KC_DB_PASSWORD'],
    ],
  },
  KEYCLOAK_ADMIN_PASSWORD: { required: true, to: [['keycloak', 'KC_BOOTSTRAP_ADMIN_PASSWORD']] },
  IDENTITY_CLIENT_SECRET: {
    required: true,
    to: [
      ['keycloak', 'IDENTITY_CLIENT_SECRET'],
      ['identity', 'KEYCLOAK_CLIENT_SECRET'],
    ],
  },
  GOOGLE_CLIENT_SECRET: { required: false, to: [['keycloak', 'GOOGLE_CLIENT_SECRET']] },
  GITHUB_CLIENT_SECRET: { required: false, to: [['keycloak', 'GITHUB_CLIENT_SECRET']] },
  OPENAI_API_KEY: { required: false, to: [['generation', 'OPENAI_API_KEY']] },
  SMTP_PASSWORD: { required: false, to: [['keycloak', 'SMTP_PASSWORD']] },
};

/**
 * Settings that are not secrets but that .env.example leaves empty, with the value the check
 * gives them, and whether compose must refuse to start without them. (SMTP_USER because the
 * check's SMTP_PASSWORD needs it.)
 */
const SETTINGS = {
  SMTP_HOST: { required: true, value: 'smtp.example.org' },
  SMTP_FROM: { required: true, value: 'debate@example.org' },
  SMTP_USER: { required: false, value: 'debate-mailer' },
};

/** Images pinned to a release: how many numbers their versions have (PostgreSQL's have two). */
const VERSION_PARTS = { postgres: 2 };
const DEFAULT_VERSION_PARTS = 3;
/** The identity-service client secret's least length (the identity service refuses shorter). */
const CLIENT_SECRET_MIN = 16;

/**
 * The contracts (ModelCatalog), when built; undefined on a fresh clone, before any install (the
 * rest of the check needs none).
 */
const contracts = await import('@debate/contracts').then(
  (module) => (module.ModelCatalog ? module : undefined),
  () => undefined,
);

const problems = [];
const problem = (text) => problems.push(text);
const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const exampleText = readFileSync(join(root, '.env.example'), 'utf8');
const realmText = readFileSync(join(root, 'deploy/keycloak/debate-realm.json'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'compose-check-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

// --- Rendering ------------------------------------------------------------------------------

const compose = (process.env.COMPOSE ?? 'docker-compose').split(' ').filter(Boolean);
const composeVersion = spawnSync(compose[0], [...compose.slice(1), 'version', '--short'], {
  encoding: 'utf8',
});
if (composeVersion.error || composeVersion.status !== 0) {
  process.stderr.write(
    `docker-compose.yml cannot be checked: ${compose.join(' ')} does not run ` +
      `(${composeVersion.error?.message ?? composeVersion.stderr.trim()}); install Debian's ` +
      "docker-compose package (.ci/run does), or set COMPOSE='docker compose'\n",
  );
  process.exit(1);
}
/** Compose 1.x prints YAML only; Compose v2 and later print JSON when asked. */
const composeV1 = /^v?1\./.test(composeVersion.stdout.trim());

function parseEnv(text) {
  const entries = new Map();
  for (const line of text.split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) entries.set(match[1], match[2]);
  }
  return entries;
}
const envText = (entries) => [...entries].map(([name, value]) => `${name}=${value}\n`).join('');

/**
 * `docker-compose config` of the file, and of the `overrides` after it, with `env` as its .env:
 * the rendered project, or why not.
 */
function render(env, name = 'env', overrides = []) {
  const file = join(work, `${name}.env`);
  writeFileSync(file, typeof env === 'string' ? env : envText(env));
  const files = ['docker-compose.yml', ...overrides].flatMap((path) => ['-f', path]);
  // The optional profile on: its service is rendered (and checked) with the rest.
  const args = ['--env-file', file, '--profile', LOCAL_MODEL.profile, ...files, 'config'];
  const result = spawnSync(
    compose[0],
    [...compose.slice(1), ...args, ...(composeV1 ? [] : ['--format', 'json'])],
    {
      cwd: root,
      encoding: 'utf8',
      // Only the .env given: nothing from this shell's environment.
      env: Object.fromEntries(
        ['PATH', 'HOME', 'DOCKER_CONFIG']
          .filter((name) => process.env[name] !== undefined)
          .map((name) => [name, process.env[name]]),
      ),
    },
  );
  if (result.status !== 0) return { ok: false, stderr: result.stderr };
  let json = result.stdout;
  if (composeV1) {
    const converted = spawnSync(
      'python3',
      ['-c', 'import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'],
      { input: result.stdout, encoding: 'utf8' },
    );
    if (converted.status !== 0) {
      process.stderr.write(
        `cannot read docker-compose's YAML (python3 with PyYAML, which Debian's docker-compose ` +
          `runs on): ${converted.error?.message ?? converted.stderr}\n`,
      );
      process.exit(1);
    }
    json = converted.stdout;
  }
  return { ok: true, project: JSON.parse(json) };
}

/** A string as the engine receives it: config output keeps `$$` escaped. */
const unescape = (value) => (typeof value === 'string' ? value.replaceAll('$$', '$') : value);
const environmentOf = (service) =>
  Object.fromEntries(
    Object.entries(service?.environment ?? {}).map(([name, value]) => [
      name,
      unescape(String(value ?? '')),
    ]),
  );
const hasHealthcheck = (service) => {
  const test = service?.healthcheck?.test;
  return Boolean(test) && !service.healthcheck.disable && test[0] !== 'NONE' && test !== 'NONE';
};
const conditionOf = (dependency) =>
  typeof dependency === 'object' && dependency !== null ? dependency.condition : 'service_started';

/** Whether a MongoDB URL names a user, as the services tell (hasCredentials in libs/nest). */
const namesCredentials = (url) => /^mongodb(\+srv)?:\/\/[^/?#]*@/.test(url);
/** The hosts and options of a mongodb:// URL without credentials. */
function mongoUrlParts(url) {
  const match = /^mongodb:\/\/([^@/?#]+)\/?(\?[^#]*)?$/.exec(url);
  if (!match) return undefined;
  const [, hosts, query = ''] = match;
  return { hosts, options: new URLSearchParams(query.slice(1)) };
}

// --- The file and .env.example --------------------------------------------------------------

const example = parseEnv(exampleText);
// Outside comments; `$${…}` is the container's own shell, not compose.
const read = new Set(
  [
    ...composeText
      .split('\n')
      .filter((line) => !/^\s*#/.test(line))
      .join('\n')
      .matchAll(/(?<!\$)\$\{([A-Za-z0-9_]+)/g),
  ].map((match) => match[1]),
);
for (const variable of read) {
  if (!example.has(variable)) problem(`${variable} is read but not listed in .env.example`);
}
for (const variable of example.keys()) {
  if (!read.has(variable)) problem(`${variable} is listed in .env.example but never read`);
}
for (const [secret] of Object.entries(SECRETS)) {
  if (!example.has(secret)) problem(`the secret ${secret} is not listed in .env.example`);
  else if (example.get(secret) !== '') problem(`.env.example gives the secret ${secret} a value`);
}

// --- Rendered: refusals ---------------------------------------------------------------------

const asIs = render(exampleText, 'example');
if (asIs.ok) problem('renders with the secrets of .env.example left empty');

/**
 * .env.example with every secret filled, each with a value of its own; the MongoDB and NATS
 * passwords full of what a URL cannot carry as it is (`@`, `/`, `:`, `%`, and `%41`, which a URL
 * reads as `A`).
 */
const AWKWARD_PASSWORD_VARIABLES = new Set([
  ...DATABASE_OWNERS.map(mongoPasswordVariable),
  ...NATS_USERS.map(natsPasswordVariable),
]);
const filled = new Map(example);
const secretValues = new Map();
for (const secret of Object.keys(SECRETS)) {
  const name = secret.toLowerCase().replaceAll('_', '-');
  const awkward = AWKWARD_PASSWORD_VARIABLES.has(secret) ? '@/:%41%@:/' : '';
  const value = `${name}-${awkward}${randomBytes(6).toString('hex')}`;
  filled.set(secret, value);
  secretValues.set(secret, value);
}
for (const [setting, { value }] of Object.entries(SETTINGS)) {
  if (!example.has(setting)) problem(`${setting} is not listed in .env.example`);
  filled.set(setting, value);
}
const base = render(filled, 'filled');
if (!base.ok) problem(`does not render with the secrets filled:\n${base.stderr}`);

for (const [secret, { required }] of Object.entries(SECRETS)) {
  if (!required) continue;
  const without = render(new Map([...filled, [secret, '']]), `without-${secret}`);
  if (without.ok) problem(`renders with ${secret} empty`);
}
for (const [setting, { required }] of Object.entries(SETTINGS)) {
  if (!required) continue;
  const without = render(new Map([...filled, [setting, '']]), `without-${setting}`);
  if (without.ok) problem(`renders with ${setting} empty`);
}

// --- Rendered: what each service gets ---------------------------------------------------------

const services = base.ok ? (base.project.services ?? {}) : {};

/**
 * How `service` signs in to MongoDB (serviceMongoUrl in libs/nest): as its own user, with
 * `password` (its secret, as `label` holds it) exactly, through a MONGO_URL at mongo:27017 that
 * authenticates against its own database and names no credentials (the service puts its user and
 * password into it percent-encoded, and refuses to start when the URL names a user too).
 */
function checkMongoSignIn(service, environment, password, label, note = '') {
  if (environment.MONGO_USERNAME !== service) {
    problem(
      `${service} signs in to MongoDB as ${JSON.stringify(environment.MONGO_USERNAME)}, ` +
        `not as its own user ${service} (MONGO_USERNAME)`,
    );
  }
  if (environment.MONGO_PASSWORD !== password) {
    problem(`${service}'s MONGO_PASSWORD is not ${label} as it is${note}`);
  }
  const url = environment.MONGO_URL ?? '';
  if (namesCredentials(url)) {
    problem(
      `${service}'s MONGO_URL names credentials: the service puts MONGO_USERNAME and ` +
        'MONGO_PASSWORD into it itself, and refuses a URL that names a user too',
    );
    return;
  }
  const parts = mongoUrlParts(url);
  if (!parts) {
    problem(`${service}'s MONGO_URL is not a mongodb://host/?options URL: ${JSON.stringify(url)}`);
    return;
  }
  if (parts.hosts !== 'mongo:27017') {
    problem(`${service}'s MONGO_URL is at ${parts.hosts}, not mongo:27017`);
  }
  if (parts.options.get('authSource') !== service) {
    problem(
      `${service}'s MONGO_URL authenticates against ` +
        `${JSON.stringify(parts.options.get('authSource'))}, not its own database ${service}`,
    );
  }
}

if (base.ok) {
  // Each secret where it must be, and nowhere else.
  for (const [secret, { to }] of Object.entries(SECRETS)) {
    const value = secretValues.get(secret);
    for (const [serviceName, variable] of to) {
      const environment = environmentOf(services[serviceName]);
      if (!services[serviceName]) problem(`${secret}: there is no service ${serviceName}`);
      else if (environment[variable] !== value) {
        problem(`${serviceName} does not get ${secret} as ${variable}`);
      }
    }
    for (const [serviceName, service] of Object.entries(services)) {
      const allowed = new Set(to.filter(([name]) => name === serviceName).map(([, v]) => v));
      for (const [variable, setting] of Object.entries(environmentOf(service))) {
        if (setting.includes(value) && !allowed.has(variable)) {
          problem(`${secret} leaks to ${serviceName} as ${variable}`);
        }
      }
      const rest = Object.entries(service).filter(([key]) => key !== 'environment');
      if (unescape(JSON.stringify(rest)).includes(value)) {
        problem(`${secret} is written into ${serviceName}'s settings outside its environment`);
      }
    }
  }

  // The deployables.
  for (const [name, dir] of Object.entries(DEPLOYABLES)) {
    const service = services[name];
    if (!service) {
      problem(`${name} is not a service`);
      continue;
    }
    const args = service.build?.args ?? {};
    if (service.build?.dockerfile !== 'deploy/docker/Dockerfile') {
      problem(`${name} is not built from deploy/docker/Dockerfile`);
    }
    const manifest = join(root, dir, 'package.json');
    const packageName = existsSync(manifest)
      ? JSON.parse(readFileSync(manifest, 'utf8')).name
      : undefined;
    if (args.PROJECT !== name || args.PROJECT_DIR !== dir || args.PACKAGE !== packageName) {
      problem(
        `${name} is built with PROJECT=${args.PROJECT} PROJECT_DIR=${args.PROJECT_DIR} ` +
          `PACKAGE=${args.PACKAGE}, not ${name} ${dir} ${packageName}`,
      );
    }
    if (!hasHealthcheck(service)) problem(`${name} is not health-checked`);
    if (environmentOf(service).NATS_URL !== 'nats://nats:4222') {
      problem(`${name} is not given the NATS URL nats://nats:4222`);
    }
    const dependencies = Object.entries(service.depends_on ?? {});
    if (dependencies.length === 0) problem(`${name} depends on nothing`);
    for (const [target, dependency] of dependencies) {
      if (conditionOf(dependency) !== 'service_healthy') {
        problem(`${name} starts before ${target} is healthy`);
      }
    }
  }

  // E-mail verification: asked for by the identity service, the mail sent by Keycloak alone.
  const identityEnvironment = environmentOf(services.identity);
  if (identityEnvironment.EMAIL_VERIFICATION !== 'required') {
    problem(
      `identity has EMAIL_VERIFICATION=${JSON.stringify(identityEnvironment.EMAIL_VERIFICATION)}, ` +
        'not required (new e-mail accounts would not verify their address)',
    );
  }
  if (!identityEnvironment.KEYCLOAK_URL) {
    problem('identity has no KEYCLOAK_URL: it would not start (it signs in against Keycloak)');
  }
  for (const [name, service] of Object.entries(services)) {
    if (name === 'keycloak') continue;
    const smtp = Object.keys(environmentOf(service)).filter((variable) =>
      variable.startsWith('SMTP_'),
    );
    if (smtp.length > 0) {
      problem(
        `${name} gets ${smtp.join(', ')}: only Keycloak sends mail (no service reads SMTP_*)`,
      );
    }
  }
  // The gateway's limits: the defaults unless the .env says otherwise.
  const gatewayEnvironment = environmentOf(services.gateway);
  for (const variable of ['RATE_LIMITS', 'TRUST_PROXY']) {
    if (gatewayEnvironment[variable] !== filled.get(variable)) {
      problem(
        `gateway's ${variable} is ${JSON.stringify(gatewayEnvironment[variable])}, not the ` +
          `.env's ${JSON.stringify(filled.get(variable))}`,
      );
    }
  }

  // The model catalogue: the generation service's alone, empty unless the .env sets it.
  for (const [name, service] of Object.entries(services)) {
    const catalog = environmentOf(service).MODEL_CATALOG;
    if (name === 'generation' && catalog !== '') {
      problem(`generation's MODEL_CATALOG is ${JSON.stringify(catalog)} with the .env's empty`);
    } else if (name !== 'generation' && catalog !== undefined) {
      problem(`${name} gets MODEL_CATALOG: only the generation service reads it`);
    }
  }

  // The local model: the profile's alone, the model stage of the one Dockerfile, inside the
  // network, its download on a volume; generation's LOCAL_MODEL_SERVER empty unless set.
  const model = services[LOCAL_MODEL.service];
  if (!model) {
    problem(`there is no ${LOCAL_MODEL.service} service (the ${LOCAL_MODEL.profile} profile)`);
  } else {
    if (!(model.profiles ?? []).includes(LOCAL_MODEL.profile)) {
      problem(
        `${LOCAL_MODEL.service} is not in the profile ${LOCAL_MODEL.profile}: every ` +
          '`docker compose up` would start it and its 1.1 GB download',
      );
    }
    const manifest = join(root, LOCAL_MODEL.dir, 'package.json');
    const packageName = existsSync(manifest)
      ? JSON.parse(readFileSync(manifest, 'utf8')).name
      : undefined;
    const args = model.build?.args ?? {};
    if (model.build?.dockerfile !== 'deploy/docker/Dockerfile' || model.build?.target !== 'model') {
      problem(`${LOCAL_MODEL.service} is not built from deploy/docker/Dockerfile's model stage`);
    }
    if (
      args.PROJECT !== LOCAL_MODEL.project ||
      args.PROJECT_DIR !== LOCAL_MODEL.dir ||
      args.PACKAGE !== packageName
    ) {
      problem(
        `${LOCAL_MODEL.service} is built with PROJECT=${args.PROJECT} PROJECT_DIR=` +
          `${args.PROJECT_DIR} PACKAGE=${args.PACKAGE}, not ${LOCAL_MODEL.project} ` +
          `${LOCAL_MODEL.dir} ${packageName}`,
      );
    }
    if (!hasHealthcheck(model)) problem(`${LOCAL_MODEL.service} is not health-checked`);
    if ((model.ports ?? []).length > 0) {
      problem(`${LOCAL_MODEL.service} publishes a port: it has no authentication`);
    }
    const command = (Array.isArray(model.command) ? model.command : []).map(String);
    const option = (name) => {
      const at = command.indexOf(name);
      return at === -1 ? undefined : command[at + 1];
    };
    if (`http://${LOCAL_MODEL.service}:${option('--port')}` !== LOCAL_MODEL.url) {
      problem(`${LOCAL_MODEL.service} does not listen where ${LOCAL_MODEL.url} says`);
    }
    const cacheDir = option('--cache-dir');
    const named = (model.volumes ?? []).some((volume) =>
      typeof volume === 'string'
        ? new RegExp(`^[A-Za-z0-9][\\w.-]*:${cacheDir}(:rw)?$`).test(volume)
        : volume.type === 'volume' && volume.target === cacheDir,
    );
    if (!cacheDir || !named) {
      problem(
        `${LOCAL_MODEL.service}'s download (--cache-dir ${cacheDir}) is not on a named volume: ` +
          'every new container would fetch the model again',
      );
    }
  }
  for (const [name, service] of Object.entries(services)) {
    const server = environmentOf(service).LOCAL_MODEL_SERVER;
    if (name === 'generation' && server !== '') {
      problem(`generation's LOCAL_MODEL_SERVER is ${JSON.stringify(server)} with the .env's empty`);
    } else if (name !== 'generation' && server !== undefined) {
      problem(`${name} gets LOCAL_MODEL_SERVER: only the generation service reads it`);
    }
  }
  const withModel = render(new Map([...filled, ['LOCAL_MODEL_SERVER', LOCAL_MODEL.url]]), 'model');
  const given = withModel.ok
    ? environmentOf(withModel.project.services?.generation).LOCAL_MODEL_SERVER
    : withModel.stderr;
  if (given !== LOCAL_MODEL.url) {
    problem(`with LOCAL_MODEL_SERVER=${LOCAL_MODEL.url} generation gets ${JSON.stringify(given)}`);
  }

  // Healthy dependencies have healthchecks; what a service's environment points at is one.
  const healthyDependencies = (name) =>
    Object.entries(services[name]?.depends_on ?? {})
      .filter(([, dependency]) => conditionOf(dependency) === 'service_healthy')
      .map(([target]) => target);
  for (const [name, service] of Object.entries(services)) {
    for (const target of healthyDependencies(name)) {
      if (!services[target]) problem(`${name} depends on ${target}, which is not a service`);
      else if (!hasHealthcheck(services[target])) {
        problem(`${name} waits for ${target} to be healthy, but ${target} has no healthcheck`);
      }
    }
    const reachable = new Set();
    const pending = [...healthyDependencies(name)];
    while (pending.length > 0) {
      const next = pending.pop();
      if (reachable.has(next)) continue;
      reachable.add(next);
      pending.push(...healthyDependencies(next));
    }
    for (const [variable, setting] of Object.entries(environmentOf(service))) {
      const host = /^(?:jdbc:)?[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^:/?#]+)/.exec(setting)?.[1];
      if (host && host !== name && services[host] && !reachable.has(host)) {
        problem(`${name} uses ${host} (${variable}) but does not wait for it to be healthy`);
      }
    }
  }

  // Images pinned to a release.
  for (const [name, service] of Object.entries(services)) {
    const image = service.image ?? '';
    if (service.build) {
      if (!image.startsWith(`debate/${name}:`)) problem(`${name} is built as ${image}`);
      continue;
    }
    const match = /^(?:(.+)\/)?([^/:@]+)(?::([^@]+))?(@sha256:[0-9a-f]{64})?$/.exec(image);
    const [, , repository, tag = '', digest] = match ?? [];
    const version = /^(\d+(?:\.\d+)*)/.exec(tag)?.[1] ?? '';
    const parts = VERSION_PARTS[repository] ?? DEFAULT_VERSION_PARTS;
    if (!digest && version.split('.').length < parts) {
      problem(`${name}'s image ${image} is not pinned to a release (${parts} numbers)`);
    }
    if (repository === 'keycloak' && version !== KEYCLOAK_VERSION) {
      problem(
        `keycloak runs ${image}, the tests Keycloak ${KEYCLOAK_VERSION} (scripts/keycloak.mjs)`,
      );
    }
  }
}

// --- Keycloak: the realm's placeholders, the healthcheck, the identity providers -----------

const keycloak = services.keycloak;
const realm = JSON.parse(realmText);
const placeholders = [...realmText.matchAll(/\$\{([A-Za-z0-9_]+)(:[^}]*)?\}/g)];
if (base.ok && !keycloak) problem('there is no keycloak service');
if (keycloak) {
  const environment = environmentOf(keycloak);
  for (const [, name, fallback] of placeholders) {
    if (fallback === undefined && !(name in environment)) {
      problem(`the realm's \${${name}} is not in keycloak's environment`);
    }
  }
  const command = (Array.isArray(keycloak.command) ? keycloak.command : [keycloak.command]).map(
    unescape,
  );
  if (!command.includes('start') || !command.includes('--import-realm')) {
    problem(`keycloak does not start importing the realm (command: ${command.join(' ')})`);
  }
  if (environment.KC_HEALTH_ENABLED !== 'true') problem('keycloak has KC_HEALTH_ENABLED off');
  // The lists of the realm's passwordBlacklist policy, where Keycloak looks for them: without
  // one, Keycloak cannot parse the realm's password policy.
  const mounts = (keycloak.volumes ?? []).map((volume) =>
    typeof volume === 'string' ? volume : `${volume.source}:${volume.target}`,
  );
  for (const [, name] of realm.passwordPolicy.matchAll(/passwordBlacklist\(([^)]+)\)/g)) {
    const mounted = mounts.some((mount) =>
      mount.includes(`deploy/keycloak/${name}:/opt/keycloak/data/password-blacklists/${name}`),
    );
    if (!mounted) problem(`keycloak does not mount deploy/keycloak/${name} among its blacklists`);
  }
}

/** Runs a command (argv) with `env`; resolves with its exit code and output. */
function runAsync(argv, env) {
  return new Promise((resolvePromise) => {
    execFile(argv[0], argv.slice(1), { env, timeout: 10_000 }, (error, stdout, stderr) => {
      resolvePromise({ code: error ? (error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function checkKeycloakHealthcheck() {
  const test = (keycloak.healthcheck?.test ?? []).map(unescape);
  const argv =
    test[0] === 'CMD' ? test.slice(1) : test[0] === 'CMD-SHELL' ? ['bash', '-c', test[1]] : [];
  const management = /\/dev\/tcp\/(?:127\.0\.0\.1|localhost)\/9000\b/g;
  const http = /\/dev\/tcp\/(?:127\.0\.0\.1|localhost)\/8080\b/g;
  if (argv.length === 0 || !argv.some((arg) => arg.match(management))) {
    problem("keycloak's healthcheck does not call the management port (127.0.0.1:9000)");
    return;
  }
  if (!argv.some((arg) => arg.match(http))) {
    problem("keycloak's healthcheck does not ask the HTTP port (127.0.0.1:8080) for the realm");
    return;
  }
  const READY = '/health/ready';
  const REALM = '/realms/debate/.well-known/openid-configuration';
  // What the stand-ins answer: each port its own server, each path its own status.
  let answers = {};
  const standIn = (paths) =>
    createServer((request, response) => {
      const known = request.method === 'GET' && paths.includes(request.url);
      const answer = known ? answers[request.url] : { status: 404, body: '{"error":"not found"}' };
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(answer.body);
    });
  const servers = [standIn([READY]), standIn([REALM])];
  await Promise.all(
    servers.map((server) => new Promise((done) => server.listen(0, '127.0.0.1', done))),
  );
  const [managementPort, httpPort] = servers.map((server) => server.address().port);
  const local = argv.map((arg) =>
    arg
      .replace(management, `/dev/tcp/127.0.0.1/${managementPort}`)
      .replace(http, `/dev/tcp/127.0.0.1/${httpPort}`),
  );
  const ready = { status: 200, body: '{"status":"UP","checks":[]}' };
  const notReady = {
    status: 503,
    body: '{"status":"DOWN","checks":[{"name":"Keycloak database connections","status":"UP"}]}',
  };
  const realm = { status: 200, body: '{"issuer":"http://localhost:8080/realms/debate"}' };
  const bootstrapping = { status: 503, body: 'Bootstrap in progress. Retry in 5 seconds.' };
  const run = () => runAsync(local, { PATH: process.env.PATH ?? '' });
  try {
    answers = { [READY]: ready, [REALM]: realm };
    const up = await run();
    if (up.code !== 0) {
      problem(
        `keycloak's healthcheck fails while Keycloak and its realm answer 200: ${up.stderr.trim()}`,
      );
    }
    answers = { [READY]: notReady, [REALM]: realm };
    if ((await run()).code === 0) {
      problem(`keycloak's healthcheck passes while /health/ready answers 503 (with "UP" inside)`);
    }
    answers = { [READY]: ready, [REALM]: bootstrapping };
    if ((await run()).code === 0) {
      problem("keycloak's healthcheck passes while the realm import is still in progress (503)");
    }
  } finally {
    for (const server of servers) server.close();
  }
}

/** Keycloak's start with `env` as its .env: the identity providers' *_ENABLED, or its refusal. */
async function keycloakStart(env, name) {
  const rendered = render(env, name);
  if (!rendered.ok) return { error: `does not render: ${rendered.stderr.trim()}` };
  const service = rendered.project.services?.keycloak ?? {};
  const environment = { PATH: process.env.PATH ?? '', ...environmentOf(service) };
  const entrypoint = (service.entrypoint ?? []).map(unescape);
  if (entrypoint.length === 0) return { code: 0, environment };
  // The image's own entrypoint, kc.sh, is stood in for by one that prints what it was given.
  const stub = join(work, 'kc-stub.sh');
  writeFileSync(stub, '#!/bin/sh\necho "ARGS=$*"\nenv\n');
  chmodSync(stub, 0o755);
  if (!entrypoint.some((arg) => arg.includes('/opt/keycloak/bin/kc.sh'))) {
    return { error: "its entrypoint never starts Keycloak's own, /opt/keycloak/bin/kc.sh" };
  }
  const argv = [
    ...entrypoint.map((arg) => arg.replaceAll('/opt/keycloak/bin/kc.sh', stub)),
    ...(service.command ?? []).map(unescape),
  ];
  const run = await runAsync(argv, environment);
  if (run.code !== 0) return { code: run.code, stderr: run.stderr };
  const printed = parseEnv(run.stdout);
  const args = /^ARGS=(.*)$/m.exec(run.stdout)?.[1] ?? '';
  return { code: 0, environment: Object.fromEntries(printed), args };
}

async function checkIdentityProviders() {
  const providers = (realm.identityProviders ?? []).map((provider) => {
    const placeholder = (value) => /^\$\{([A-Za-z0-9_]+)(?::[^}]*)?\}$/.exec(String(value))?.[1];
    return {
      alias: provider.alias,
      enabled: placeholder(provider.enabled),
      id: placeholder(provider.config?.clientId),
      secret: placeholder(provider.config?.clientSecret),
      literal: provider.enabled,
    };
  });
  const quiet = new Map(filled);
  for (const provider of providers) {
    if (!provider.enabled || !provider.id || !provider.secret) {
      problem(
        `the realm's ${provider.alias} is enabled by ${JSON.stringify(provider.literal)}, ` +
          'not by a placeholder compose can set from its client id',
      );
      return;
    }
    quiet.set(provider.id, '');
    quiet.set(provider.secret, '');
  }
  const enabledIn = (start, provider) => start.environment?.[provider.enabled] === 'true';

  const none = await keycloakStart(quiet, 'no-providers');
  if (none.error || none.code !== 0) {
    problem(`keycloak does not start without providers: ${none.error ?? none.stderr}`);
  } else {
    for (const provider of providers) {
      if (enabledIn(none, provider)) problem(`${provider.alias} is enabled with no client id`);
    }
    if (none.args !== undefined && none.args !== 'start --import-realm') {
      problem(`keycloak's entrypoint starts kc.sh with "${none.args}", not its command`);
    }
  }
  // The .env asking for a provider outright, with no client id: still off.
  const asked = new Map(quiet);
  for (const provider of providers) asked.set(provider.enabled, 'true');
  const askedStart = await keycloakStart(asked, 'asked');
  for (const provider of providers) {
    if (enabledIn(askedStart, provider)) {
      problem(`${provider.alias} is enabled by ${provider.enabled}=true with no client id`);
    }
  }
  for (const provider of providers) {
    const configured = new Map(quiet);
    configured.set(provider.id, `${provider.alias}-client-id`);
    configured.set(provider.secret, `${provider.alias}-client-secret`);
    const start = await keycloakStart(configured, `with-${provider.alias}`);
    if (start.error || start.code !== 0) {
      problem(`keycloak does not start with ${provider.id} set: ${start.error ?? start.stderr}`);
      continue;
    }
    if (!enabledIn(start, provider)) {
      problem(`${provider.alias} is not enabled with ${provider.id} set`);
    }
    if (start.environment?.[provider.id] !== `${provider.alias}-client-id`) {
      problem(`keycloak does not get ${provider.id}`);
    }
    for (const other of providers) {
      if (other !== provider && enabledIn(start, other)) {
        problem(`${other.alias} is enabled by ${provider.id}`);
      }
    }
    const halfway = new Map(configured);
    halfway.set(provider.secret, '');
    const refused = await keycloakStart(halfway, `half-${provider.alias}`);
    if (!refused.error && refused.code === 0) {
      problem(`keycloak starts with ${provider.id} set and ${provider.secret} empty`);
    } else if (!refused.error && !String(refused.stderr).includes(provider.secret)) {
      problem(`keycloak refuses ${provider.id} without its secret, but does not name it`);
    }
  }
}

/** A realm file's value with its placeholders filled from `environment`, as Keycloak's import does. */
const fillPlaceholders = (value, environment) =>
  String(value).replace(/\$\{([A-Za-z0-9_]+)(?::([^}]*))?\}/g, (text, name, fallback) =>
    environment[name] !== undefined ? environment[name] : (fallback ?? text),
  );

/**
 * The realm's SMTP server: every placeholder of the realm set in the environment kc.sh starts
 * with, SMTP_AUTH following SMTP_USER (whatever the .env says of SMTP_AUTH), SMTP_PASSWORD without
 * SMTP_USER refused naming both, and the realm's smtpServer, filled from that environment, the
 * server the .env names, with compose's defaults for what it leaves empty.
 */
async function checkSmtp() {
  const server = realm.smtpServer;
  if (!server || typeof server !== 'object') {
    problem('the realm file has no smtpServer: Keycloak could not send the verification mail');
    return;
  }
  const filledIn = (start) =>
    Object.fromEntries(
      Object.entries(server).map(([key, value]) => [
        key,
        fillPlaceholders(value, start.environment),
      ]),
    );
  const compare = (label, actual, expected) => {
    for (const [key, value] of Object.entries(expected)) {
      if (actual[key] !== value) {
        problem(
          `${label}: the realm's smtpServer.${key} is imported as ` +
            `${JSON.stringify(actual[key])}, not ${JSON.stringify(value)}`,
        );
      }
    }
  };

  // With a user and its password: Keycloak logs in, with exactly those.
  const withUser = await keycloakStart(filled, 'smtp-user');
  if (withUser.error || withUser.code !== 0) {
    problem(`keycloak does not start with SMTP_USER set: ${withUser.error ?? withUser.stderr}`);
  } else {
    for (const [, name] of placeholders) {
      if (withUser.environment[name] === undefined) {
        problem(
          `the realm's \${${name}} is not in the environment keycloak's entrypoint starts kc.sh ` +
            'with: Keycloak imports its default',
        );
      }
    }
    if (withUser.environment.SMTP_AUTH !== 'true') {
      problem(`keycloak's SMTP_AUTH is ${withUser.environment.SMTP_AUTH} with SMTP_USER set`);
    }
    compare('with SMTP_USER set', filledIn(withUser), {
      host: filled.get('SMTP_HOST'),
      port: filled.get('SMTP_PORT'),
      from: filled.get('SMTP_FROM'),
      fromDisplayName: filled.get('SMTP_FROM_DISPLAY_NAME'),
      auth: 'true',
      user: filled.get('SMTP_USER'),
      password: secretValues.get('SMTP_PASSWORD'),
      starttls: filled.get('SMTP_STARTTLS'),
      ssl: filled.get('SMTP_SSL'),
    });
  }

  // No user, the optional settings empty, and the .env asking for SMTP_AUTH outright: no login,
  // and compose's defaults (port 587 with STARTTLS, the display name).
  const anonymous = new Map(filled);
  for (const setting of [
    'SMTP_USER',
    'SMTP_PASSWORD',
    'SMTP_PORT',
    'SMTP_FROM_DISPLAY_NAME',
    'SMTP_STARTTLS',
    'SMTP_SSL',
  ]) {
    anonymous.set(setting, '');
  }
  anonymous.set('SMTP_AUTH', 'true');
  const withoutUser = await keycloakStart(anonymous, 'smtp-anonymous');
  if (withoutUser.error || withoutUser.code !== 0) {
    problem(
      `keycloak does not start without SMTP_USER: ${withoutUser.error ?? withoutUser.stderr}`,
    );
  } else {
    if (withoutUser.environment.SMTP_AUTH !== 'false') {
      problem(
        `keycloak's SMTP_AUTH is ${withoutUser.environment.SMTP_AUTH} with SMTP_USER empty ` +
          '(and SMTP_AUTH=true in the .env)',
      );
    }
    compare('with SMTP_USER empty', filledIn(withoutUser), {
      host: filled.get('SMTP_HOST'),
      port: '587',
      from: filled.get('SMTP_FROM'),
      fromDisplayName: 'AI Debate',
      auth: 'false',
      user: '',
      password: '',
      starttls: 'true',
      ssl: 'false',
    });
  }

  // A password without its user.
  const halfway = new Map(filled);
  halfway.set('SMTP_USER', '');
  const refused = await keycloakStart(halfway, 'smtp-password-only');
  if (!refused.error && refused.code === 0) {
    problem('keycloak starts with SMTP_PASSWORD set and SMTP_USER empty');
  } else if (
    !refused.error &&
    !(
      String(refused.stderr).includes('SMTP_PASSWORD') &&
      String(refused.stderr).includes('SMTP_USER')
    )
  ) {
    problem(
      `keycloak refuses SMTP_PASSWORD without SMTP_USER, but does not name both: ${refused.stderr}`,
    );
  }
}

/** The gateway's RATE_LIMITS and TRUST_PROXY, as an .env sets them: intact (JSON and all). */
function checkGatewayLimits() {
  const limits = new Map(filled);
  limits.set('RATE_LIMITS', '{"signUp":{"address":"3/1h"},"vote":{"account":null}}');
  limits.set('TRUST_PROXY', '127.0.0.1,172.16.0.0/12');
  const rendered = render(limits, 'gateway-limits');
  if (!rendered.ok) {
    problem(`does not render with RATE_LIMITS and TRUST_PROXY set:\n${rendered.stderr}`);
    return;
  }
  const environment = environmentOf(rendered.project.services?.gateway);
  for (const variable of ['RATE_LIMITS', 'TRUST_PROXY']) {
    if (environment[variable] !== limits.get(variable)) {
      problem(
        `gateway's ${variable} is ${JSON.stringify(environment[variable])}, not the .env's ` +
          JSON.stringify(limits.get(variable)),
      );
    }
  }
}

// --- The model catalogue and its keys ---------------------------------------------------------

/**
 * MODEL_CATALOG as the generation service receives it (`value`): its entries, or undefined after
 * naming each problem the service would refuse to start on. With the contracts built, parsed with
 * their ModelCatalog; without, checked to be a JSON array only.
 */
function readModelCatalog(label, value) {
  const text = (value ?? '').trim();
  if (!text) return [];
  const refused = '(the generation service refuses to start)';
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    problem(`${label}: MODEL_CATALOG is not JSON ${refused}`);
    return undefined;
  }
  if (!contracts) {
    if (Array.isArray(parsed) && parsed.every((entry) => entry && typeof entry === 'object')) {
      return parsed;
    }
    problem(`${label}: MODEL_CATALOG is not a JSON array of models ${refused}`);
    return undefined;
  }
  const checked = contracts.ModelCatalog.safeParse(parsed);
  if (checked.success) return checked.data;
  for (const issue of checked.error.issues) {
    const [index, ...field] = issue.path;
    const id = typeof index === 'number' ? parsed[index]?.id : undefined;
    const where =
      typeof index === 'number'
        ? `MODEL_CATALOG[${index}]${typeof id === 'string' ? ` ("${id}")` : ''}` +
          (field.length > 0 ? `.${field.join('.')}` : '')
        : 'MODEL_CATALOG';
    problem(`${label}: ${where}: ${issue.message} ${refused}`);
  }
  return undefined;
}

/**
 * Every key variable the catalogue's entries name reaches the generation service of `rendered`
 * set (else the service refuses to start, naming it), and its key no other service.
 */
function checkModelKeys(label, entries, rendered) {
  const services = rendered.project.services ?? {};
  const generation = environmentOf(services.generation);
  for (const entry of entries) {
    const variable = entry.apiKeyEnv;
    if (typeof variable !== 'string') continue;
    const key = generation[variable];
    if (!key) {
      const passed = variable in generation;
      const how = passed
        ? `set ${variable} in .env`
        : "add it to generation's environment in docker-compose.override.yml " +
          '(docs/deploy-compose.md), and set it in .env';
      problem(
        `${label}: model "${entry.id}" reads its key from ${variable}, which the generation ` +
          `service ${passed ? 'gets empty' : 'does not get'}: it would refuse ` +
          `to start (${how})`,
      );
      continue;
    }
    // (A key too short to tell from other settings is not looked for.)
    for (const [name, service] of Object.entries(key.length >= 8 ? services : {})) {
      if (name === 'generation') continue;
      for (const [other, setting] of Object.entries(environmentOf(service))) {
        if (setting.includes(key)) {
          problem(`${label}: the key in ${variable} leaks to ${name} as ${other}`);
        }
      }
    }
  }
}

/**
 * The check's own catalogue, JSON with what an .env line can carry (quotes, spaces, colons,
 * slashes, `=`, `&`, an apostrophe; not `$` nor ` #`, which compose reads its own way).
 */
const CHECK_CATALOG = JSON.stringify([
  {
    id: 'gpt-4o',
    label: 'GPT-4o "omni" (OpenAI)',
    apiKeyEnv: 'OPENAI_API_KEY',
    providerModel: 'gpt-4o',
  },
  {
    id: 'llama-local',
    label: "Llama 3.1 8B: Ollama's, q=4 & more",
    baseUrl: 'http://ollama:11434/v1',
    providerModel: 'llama3.1:8b',
    structuredOutput: 'json_schema',
    maxConcurrentTurns: 2,
  },
]);

/** MODEL_CATALOG, as an .env sets it: the generation service's alone, intact, and its keys there. */
function checkModelCatalog() {
  const label = "the check's MODEL_CATALOG";
  const env = new Map([...filled, ['MODEL_CATALOG', CHECK_CATALOG]]);
  const rendered = render(env, 'model-catalog');
  if (!rendered.ok) {
    problem(`does not render with MODEL_CATALOG set:\n${rendered.stderr}`);
    return;
  }
  const services = rendered.project.services ?? {};
  const received = environmentOf(services.generation).MODEL_CATALOG;
  if (received !== CHECK_CATALOG) {
    problem(
      `generation's MODEL_CATALOG is ${JSON.stringify(received)}, not the .env's ` +
        JSON.stringify(CHECK_CATALOG),
    );
  }
  for (const [name, service] of Object.entries(services)) {
    if (name === 'generation') continue;
    for (const [variable, setting] of Object.entries(environmentOf(service))) {
      if (variable === 'MODEL_CATALOG' || setting.includes(CHECK_CATALOG)) {
        problem(
          `MODEL_CATALOG reaches ${name} as ${variable}: only the generation service reads it`,
        );
      }
    }
  }
  const entries = readModelCatalog(label, received);
  if (entries) checkModelKeys(label, entries, rendered);
}

/** The first fenced block of docs/deploy-compose.md whose first line is `firstLine`. */
function documentedBlock(page, firstLine) {
  return [...page.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1])
    .find((block) => block.split('\n')[0].trim() === firstLine);
}

/**
 * The models example of docs/deploy-compose.md (its docker-compose.override.yml and its .env
 * lines) rendered with the file: its catalogue parses, each key it names reaches the generation
 * service alone, and compose refuses to render while a key the override passes is empty, naming
 * it (rather than the service refusing to start).
 */
function checkDocumentedModels() {
  const label = "docs/deploy-compose.md's model example";
  const page = readFileSync(join(root, 'docs/deploy-compose.md'), 'utf8');
  const overrideText = documentedBlock(page, '# docker-compose.override.yml: the models');
  const envLines = documentedBlock(page, '# .env: the models');
  if (!overrideText || !envLines) {
    problem(
      `${label} is gone: the blocks beginning "# docker-compose.override.yml: the models" and ` +
        '"# .env: the models"',
    );
    return;
  }
  const override = join(work, 'models.override.yml');
  writeFileSync(override, overrideText);
  const env = new Map([...filled, ...parseEnv(envLines)]);
  const rendered = render(env, 'documented-models', [override]);
  if (!rendered.ok) {
    problem(`${label} does not render:\n${rendered.stderr}`);
    return;
  }
  const entries = readModelCatalog(
    label,
    environmentOf(rendered.project.services?.generation).MODEL_CATALOG,
  );
  if (!entries) return;
  if (entries.length === 0) problem(`${label} sets no MODEL_CATALOG`);
  checkModelKeys(label, entries, rendered);
  for (const variable of new Set(entries.map((entry) => entry.apiKeyEnv))) {
    if (typeof variable !== 'string' || variable === 'OPENAI_API_KEY') continue;
    const without = render(new Map([...env, [variable, '']]), `documented-no-${variable}`, [
      override,
    ]);
    if (without.ok) {
      problem(
        `${label} renders with ${variable} empty (the generation service would refuse to start)`,
      );
    } else if (!without.stderr.includes(variable)) {
      problem(`${label} refuses ${variable} empty without naming it: ${without.stderr.trim()}`);
    }
  }
}

{
  if (keycloak) {
    await checkKeycloakHealthcheck();
    await checkIdentityProviders();
    await checkSmtp();
  }
  if (base.ok) {
    checkGatewayLimits();
    checkModelCatalog();
    checkDocumentedModels();
  }
  const natsCheck = { deployables: NATS_USERS, services, environmentOf, problem, work, contracts };
  const natsBroker = base.ok
    ? (await checkNatsFiles(natsCheck), await checkNatsBroker(natsCheck))
    : '';

  // --- An .env: the check's own, and an operator's ---------------------------------------------

  /**
   * An .env (its text, and its rendering when already made): compose accepts it, each service
   * signs in to MongoDB with the password the .env gives it, as it is (whatever its characters),
   * each provider's client id has its secret, and the identity-service client secret is long
   * enough.
   */
  function checkEnvFile(label, text, rendered = render(text, 'operator'), operator = true) {
    const env = parseEnv(text);
    if (!rendered.ok) problem(`${label}: docker-compose refuses it:\n${rendered.stderr.trim()}`);
    for (const service of DATABASE_OWNERS) {
      const variable = mongoPasswordVariable(service);
      const password = env.get(variable) ?? '';
      if (rendered.ok && password) {
        checkMongoSignIn(
          service,
          environmentOf(rendered.project.services?.[service]),
          password,
          `${label}'s ${variable}`,
          operator ? ' (in an .env, compose reads quotes, $, spaces and # its own way)' : '',
        );
      }
    }
    for (const alias of ['GOOGLE', 'GITHUB']) {
      if (env.get(`${alias}_CLIENT_ID`) && !env.get(`${alias}_CLIENT_SECRET`)) {
        problem(`${label}: ${alias}_CLIENT_ID is set but ${alias}_CLIENT_SECRET is empty`);
      }
    }
    if (env.get('SMTP_PASSWORD') && !env.get('SMTP_USER')) {
      problem(`${label}: SMTP_PASSWORD is set but SMTP_USER is empty`);
    }
    const rateLimits = (env.get('RATE_LIMITS') ?? '').trim();
    if (rateLimits && rateLimits !== 'off') {
      try {
        JSON.parse(rateLimits);
      } catch {
        problem(`${label}: RATE_LIMITS is neither empty, off nor JSON (the gateway refuses it)`);
      }
    }
    // The catalogue as the generation service receives it, and its keys: compose reads
    // docker-compose.override.yml beside the file on its own, so the keys it passes count.
    const catalog = rendered.ok
      ? environmentOf(rendered.project.services?.generation).MODEL_CATALOG
      : env.get('MODEL_CATALOG');
    const entries = readModelCatalog(label, catalog);
    if (entries && entries.length > 0 && rendered.ok) {
      const override = join(root, 'docker-compose.override.yml');
      const withOverride =
        operator && existsSync(override) ? render(text, 'operator-override', [override]) : rendered;
      if (!withOverride.ok) {
        problem(
          `${label}: with ${override}, docker-compose refuses it:\n${withOverride.stderr.trim()}`,
        );
      } else {
        checkModelKeys(label, entries, withOverride);
      }
    }
    const clientSecret = env.get('IDENTITY_CLIENT_SECRET') ?? '';
    if (clientSecret && clientSecret.length < CLIENT_SECRET_MIN) {
      problem(`${label}: IDENTITY_CLIENT_SECRET is shorter than ${CLIENT_SECRET_MIN} characters`);
    }
  }

  // The check's own .env, its MongoDB passwords full of @ / : %, passes as an operator's would.
  if (base.ok) {
    checkEnvFile("the check's .env", envText(filled), base, false);
  }

  const operatorFile = process.argv[2] ? resolve(process.argv[2]) : join(root, '.env');
  let checkedOperatorFile = false;
  if (process.argv[2] || existsSync(operatorFile)) {
    checkedOperatorFile = true;
    if (!existsSync(operatorFile)) problem(`${operatorFile}: no such file`);
    else checkEnvFile(operatorFile, readFileSync(operatorFile, 'utf8'));
  }

  if (problems.length > 0) {
    process.stderr.write(
      `docker-compose.yml: ${problems.length} problem(s)\n- ${problems.join('\n- ')}\n`,
    );
    process.exitCode = 1;
  } else {
    const required = [...Object.values(SECRETS), ...Object.values(SETTINGS)].filter(
      (entry) => entry.required,
    ).length;
    process.stdout.write(
      `docker-compose.yml: valid with ${compose.join(' ')} ${composeVersion.stdout.trim()} ` +
        `(${read.size} variables, all in .env.example; ${required} required settings refused ` +
        `while empty, ${secretValues.size} reaching only their services; ` +
        `${DATABASE_OWNERS.length} services signing in to MongoDB as their own users, with ` +
        "passwords full of @ / : % intact; Keycloak's " +
        'healthcheck, identity providers and SMTP server run against stand-ins; e-mail ' +
        'verification on, its mail sent by Keycloak alone; each deployable its own NATS user ' +
        `over TLS, ${natsBroker}` +
        (contracts ? ', its nats.conf current' : '') +
        `; the ${LOCAL_MODEL.profile} profile's model server inside the network, its ` +
        'download on a volume, LOCAL_MODEL_SERVER reaching generation alone' +
        '; MODEL_CATALOG reaching generation ' +
        "alone, intact, and the documented models' keys reaching it; the catalogues " +
        (contracts
          ? "parsed with the contracts' ModelCatalog"
          : 'checked as JSON arrays only (build the contracts, `npx nx build contracts`, to ' +
            'parse them with their ModelCatalog)') +
        (checkedOperatorFile ? `; ${operatorFile} checked` : '') +
        ')\n',
    );
  }
}
