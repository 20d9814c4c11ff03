// NATS in docker-compose.yml: three servers clustered, each deployable's own NATS user, TLS
// between the services and the servers and between the servers, and the configuration they run
// (deploy/nats/nats.conf, generated from the contracts' permission map and cluster settings).
//
// On the rendered file: every deployable signs in as its own user (NATS_USER is its name; its
// password, NATS_PASSWORD, is one of the SECRETS) and trusts the servers' certificate authority
// (NATS_TLS_CA_FILE, a file of the nats-ca volume, mounted read-only); nats-certs makes the
// certificate, naming every server, into the volumes the servers and the services mount, and the
// servers start after it, on deploy/nats/start.sh, with the certificate and the authority where
// nats.conf reads them, each with its own name and store; no one but the servers and nats-certs
// mounts the volume of the private keys; nats.conf reads exactly the passwords the servers'
// environment gets, routes to each of the three servers and no other, and is what the contracts
// give.
//
// Then, as for Keycloak, the three servers are run here on stand-ins of their containers:
// nats-certs's script with this machine's openssl, start.sh with each one's rendered environment
// and this machine's nats-server (paths, ports and route hosts moved to this machine). They form
// one cluster, named as the contracts name it, each routed to the two others over TLS; a stream
// of three replicas can be made. Each deployable connects with the credentials compose gives it,
// over TLS, trusting the authority the script made; the servers require TLS; a wrong password is
// refused; the community service's credentials can neither request usage.* nor read debates.*
// requests, and can answer its own, which the gateway's can ask (through another server of the
// cluster); start.sh refuses an empty password, naming it.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import {
  NATS_CONF,
  NATS_ROUTE_PORT,
  NATS_SERVER_NAME_VARIABLE,
  NATS_SERVERS,
  natsPasswordVariable,
  renderNatsConf,
} from '../nats-config.mjs';
import { freePort, hasCommand, root } from '../workspace.mjs';
import { NATS_USERS } from './deployment.mjs';
import {
  contracts,
  environmentOf,
  filledService,
  filledServices,
  hasHealthcheck,
  rule,
  work,
} from './compose.mjs';

/** Where the servers' certificate authority is mounted, and from which volume. */
const CA_VOLUME = 'nats-ca';
/** The volume of the private keys (the authority's and the servers'): the servers' alone. */
const TLS_VOLUME = 'nats-tls';
/** Where each server keeps its JetStream store (nats.conf's store_dir). */
const STORE_DIR = '/data';

/** A service's mounts as { source, target, readOnly }, from either renderer's syntax. */
function mountsOf(service) {
  return (service?.volumes ?? []).map((volume) => {
    if (typeof volume === 'string') {
      const [source, target, mode = 'rw'] = volume.split(':');
      return { source, target, readOnly: mode.split(',').includes('ro') };
    }
    return { source: volume.source, target: volume.target, readOnly: Boolean(volume.read_only) };
  });
}
const mountOf = (service, source) => mountsOf(service).find((mount) => mount.source === source);
const bindOf = (service, folder) =>
  mountsOf(service).find((mount) => mount.source === join(root, folder));

/** The passwords nats.conf reads, as the variables start.sh defines. */
const passwordVariablesOf = (conf) =>
  [...new Set([...conf.matchAll(/password: \$([A-Z0-9_]+)/g)].map((match) => match[1]))].sort();

const conf = readFileSync(NATS_CONF, 'utf8');
/** The hosts and ports of nats.conf's routes. */
const routesOf = (text) =>
  [...text.matchAll(/"nats-route:\/\/([^":]+):(\d+)"/g)].map((match) => ({
    host: match[1],
    port: Number(match[2]),
  }));

rule(
  "each deployable signs in to NATS as its own user and trusts the NATS servers' authority, mounted " +
    'read-only',
  (problem) => {
    const services = filledServices();
    for (const name of NATS_USERS) {
      const environment = environmentOf(services[name]);
      if (environment.NATS_USER !== name) {
        problem(
          `${name} signs in to NATS as ${JSON.stringify(environment.NATS_USER)}, not ${name}`,
        );
      }
      const caFile = environment.NATS_TLS_CA_FILE ?? '';
      const ca = mountOf(services[name], CA_VOLUME);
      if (!ca || !caFile.startsWith(`${ca.target}/`)) {
        problem(
          `${name}'s NATS_TLS_CA_FILE (${JSON.stringify(caFile)}) is not a file of the ` +
            `${CA_VOLUME} volume it mounts: it would not connect over TLS`,
        );
      } else if (!ca.readOnly) problem(`${name} mounts ${CA_VOLUME} writable`);
    }
  },
);

rule(
  "no service but the NATS servers and nats-certs mounts the servers' private keys",
  (problem) => {
    for (const [name, service] of Object.entries(filledServices())) {
      if (!NATS_SERVERS.includes(name) && name !== 'nats-certs' && mountOf(service, TLS_VOLUME)) {
        problem(`${name} mounts ${TLS_VOLUME}, the NATS servers' private keys`);
      }
    }
  },
);

rule(
  'nats-certs writes a certificate naming every server where the servers and the services read ' +
    'it, and every server waits for it',
  (problem) => {
    const certs = filledService('nats-certs');
    const certsEnvironment = environmentOf(certs);
    const certsEntrypoint = [certs.entrypoint ?? []].flat();
    const script = bindOf(certs, 'deploy/nats');
    if (!script || certsEntrypoint.at(-1) !== `${script.target}/certificates.sh`) {
      problem("nats-certs does not run deploy/nats/certificates.sh from the repository's folder");
    }
    if (mountOf(certs, TLS_VOLUME)?.target !== certsEnvironment.NATS_TLS_DIR) {
      problem(`nats-certs does not write its keys into ${TLS_VOLUME} (NATS_TLS_DIR)`);
    }
    if (mountOf(certs, CA_VOLUME)?.target !== certsEnvironment.NATS_CA_DIR) {
      problem(
        `nats-certs does not write the authority's certificate into ${CA_VOLUME} (NATS_CA_DIR)`,
      );
    }
    // The services reach each server, and each server the others' routes, by its service's name.
    const names = (certsEnvironment.NATS_TLS_NAMES ?? '').split(',');
    for (const server of NATS_SERVERS) {
      if (!names.includes(`DNS:${server}`)) {
        problem(`nats-certs's NATS_TLS_NAMES does not name ${server}: TLS to it would fail`);
      }
      const condition = filledService(server).depends_on?.['nats-certs']?.condition;
      if (condition !== 'service_completed_successfully') {
        problem(`${server} does not wait for nats-certs to complete successfully`);
      }
    }
  },
);

rule(
  'each NATS server starts on deploy/nats/start.sh, with the certificate and the authority where ' +
    'nats.conf reads them, every password nats.conf reads, its own name and a store of its own',
  (problem) => {
    const variables = passwordVariablesOf(conf);
    const expected = NATS_USERS.map(natsPasswordVariable).sort();
    if (variables.join() !== expected.join()) {
      problem(`nats.conf reads the passwords ${variables.join(', ')}, not ${expected.join(', ')}`);
    }
    if (!conf.includes(`server_name: $${NATS_SERVER_NAME_VARIABLE}\n`)) {
      problem(`nats.conf does not read the server's name from ${NATS_SERVER_NAME_VARIABLE}`);
    }
    if (!conf.includes(`store_dir: "${STORE_DIR}"`)) {
      problem(`nats.conf does not keep JetStream's store in ${STORE_DIR}`);
    }
    const stores = new Map();
    for (const server of NATS_SERVERS) {
      const service = filledService(server);
      const config = bindOf(service, 'deploy/nats');
      const command = [service.command ?? []].flat();
      if (!config || command.join(' ') !== `/bin/sh ${config.target}/start.sh`) {
        problem(`${server} does not start with deploy/nats/start.sh from the repository's folder`);
      }
      for (const [key, volume] of [
        ['cert_file', TLS_VOLUME],
        ['key_file', TLS_VOLUME],
        ['ca_file', CA_VOLUME],
      ]) {
        const mount = mountOf(service, volume);
        for (const [, file] of conf.matchAll(new RegExp(`${key}: "([^"]+)"`, 'g'))) {
          if (!mount || !file.startsWith(`${mount.target}/`)) {
            problem(`${server}: nats.conf reads its ${key} ${file}, not from ${volume}`);
          }
        }
      }
      const environment = environmentOf(service);
      for (const variable of variables) {
        if (!environment[variable]) {
          problem(`${server} reads ${variable} but compose does not set it`);
        }
      }
      if (environment[NATS_SERVER_NAME_VARIABLE] !== server) {
        problem(
          `${server} is named ${JSON.stringify(environment[NATS_SERVER_NAME_VARIABLE])}, ` +
            `not ${server} (${NATS_SERVER_NAME_VARIABLE})`,
        );
      }
      const store = mountsOf(service).find((mount) => mount.target === STORE_DIR);
      if (!store || store.source.includes('/')) {
        problem(`${server} does not keep its JetStream store (${STORE_DIR}) on a named volume`);
      } else if (stores.has(store.source)) {
        problem(
          `${server} shares its JetStream store ${store.source} with ${stores.get(store.source)}`,
        );
      } else stores.set(store.source, server);
      if (!hasHealthcheck(service)) problem(`${server} is not health-checked`);
    }
  },
);

rule(
  'NATS is three servers, each routing to every one of them and to no other, clustered as the ' +
    "contracts' settings say",
  (problem) => {
    const services = filledServices();
    const servers = Object.keys(services).filter((name) =>
      String(services[name].image ?? '').startsWith('nats:'),
    );
    if (servers.sort().join() !== [...NATS_SERVERS].sort().join()) {
      problem(`the NATS servers are ${servers.join(', ')}, not ${NATS_SERVERS.join(', ')}`);
    }
    if (NATS_SERVERS.length !== 3) {
      problem(`${NATS_SERVERS.length} NATS servers: JetStream needs three to lose one`);
    }
    const routes = routesOf(conf);
    const hosts = routes.map((route) => route.host);
    if (hosts.sort().join() !== [...NATS_SERVERS].sort().join()) {
      problem(`nats.conf routes to ${hosts.join(', ')}, not to ${NATS_SERVERS.join(', ')}`);
    }
    const listen = /listen: "[^":]*:(\d+)"/.exec(conf)?.[1];
    for (const route of routes) {
      if (route.port !== Number(listen) || route.port !== NATS_ROUTE_PORT) {
        problem(
          `nats.conf's route to ${route.host} is on ${route.port}, its cluster listens on ${listen}`,
        );
      }
    }
    if (!/\ncluster \{\n(?: {2}\w+: [^\n]*\n)* {2}tls: \{/.test(conf)) {
      problem("nats.conf's routes do not speak TLS");
    }
    if (contracts) {
      const { NATS_CLUSTER_NAME, NATS_MAX_PINGS_OUT, NATS_PING_INTERVAL_SECONDS } = contracts;
      for (const line of [
        `name: "${NATS_CLUSTER_NAME}"`,
        `ping_interval: "${NATS_PING_INTERVAL_SECONDS}s"`,
        `ping_max: ${NATS_MAX_PINGS_OUT}`,
      ]) {
        if (!conf.includes(`${line}\n`)) problem(`nats.conf does not say ${line}`);
      }
    }
  },
);

rule(
  "deploy/nats/nats.conf is what the contracts' permission map and cluster settings give",
  async (problem, t) => {
    if (!contracts) {
      t.skip('the contracts are not built (`npx nx build contracts`)');
      return;
    }
    if ((await renderNatsConf()) !== conf) {
      problem(
        'deploy/nats/nats.conf is not what the contracts give: run ' +
          '`node scripts/nats-config.mjs --write`',
      );
    }
  },
);

/** Resolves with a command's exit code (null when it had to be killed) and output. */
function runFile(argv, options) {
  return new Promise((resolve) => {
    execFile(argv[0], argv.slice(1), { timeout: 20_000, ...options }, (error, stdout, stderr) => {
      resolve({ code: error ? (error.killed ? null : (error.code ?? 1)) : 0, stdout, stderr });
    });
  });
}

/** The first line the server sends a plain TCP client (its INFO). */
function infoOf(port) {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\r\n')) {
        socket.destroy();
        resolve(JSON.parse(text.slice('INFO '.length, text.indexOf('\r\n'))));
      }
    });
    socket.on('error', reject);
  });
}

/** Whether every server's /healthz answers ok within 30 s (false at once when one exits). */
async function waitForHealth(servers) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (servers.some(({ child }) => child.exitCode !== null)) return false;
    const healthy = await Promise.all(
      servers.map(({ ports }) =>
        fetch(`http://127.0.0.1:${ports.http}/healthz`).then(
          (response) => response.ok,
          () => false,
        ),
      ),
    );
    if (healthy.every(Boolean)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** A monitoring endpoint's JSON (/varz, /routez). */
const monitor = (server, path) =>
  fetch(`http://127.0.0.1:${server.ports.http}${path}`).then((response) => response.json());

rule(
  'the three NATS servers, run on stand-ins of their containers, form one cluster over TLS ' +
    'routes, keep a stream on all three, let each deployable in over TLS with its credentials ' +
    'and keep it to its own subjects',
  async (problem, t) => {
    const services = filledServices();
    const missing = ['nats-server', 'openssl'].filter((command) => !hasCommand(command));
    const client = await import('@nats-io/transport-node').catch(() => undefined);
    if (missing.length > 0 || !client) {
      const absent = [...missing, ...(client ? [] : ['@nats-io/transport-node'])];
      t.skip(`not run here (no ${absent.join(', ')})`);
      return;
    }
    const dir = join(work, 'nats');
    const tlsDir = join(dir, 'tls');
    const caDir = join(dir, 'ca');
    for (const folder of [tlsDir, caDir]) mkdirSync(folder, { recursive: true });
    const made = await runFile(['sh', join(root, 'deploy/nats/certificates.sh')], {
      env: {
        PATH: process.env.PATH,
        ...environmentOf(services['nats-certs']),
        NATS_TLS_DIR: tlsDir,
        NATS_CA_DIR: caDir,
      },
    });
    if (made.code !== 0) {
      problem(`deploy/nats/certificates.sh fails: ${made.stderr.trim()}`);
      return;
    }
    // Each server on ports of this machine; the routes' hosts become 127.0.0.1, which the
    // certificate names as it names the servers' services.
    const servers = [];
    for (const name of NATS_SERVERS) {
      servers.push({
        name,
        service: services[name],
        ports: { client: await freePort(), http: await freePort(), route: await freePort() },
      });
    }
    const routePorts = new Map(servers.map((server) => [server.name, server.ports.route]));
    const startScript = join(root, 'deploy/nats/start.sh');
    for (const server of servers) {
      const { service, ports } = server;
      const local = join(dir, server.name);
      mkdirSync(join(local, 'data'), { recursive: true });
      const tlsTarget = mountOf(service, TLS_VOLUME)?.target ?? '/etc/nats-tls';
      const caTarget = mountOf(service, CA_VOLUME)?.target ?? '/etc/nats-ca';
      const localConf = conf
        .replaceAll(`"${tlsTarget}/`, `"${tlsDir}/`)
        .replaceAll(`"${caTarget}/`, `"${caDir}/`)
        .replace(/store_dir: "[^"]*"/, `store_dir: "${join(local, 'data')}"`)
        .replace(/^port: \d+$/m, `port: ${ports.client}`)
        .replace(/^http_port: \d+$/m, `http_port: ${ports.http}`)
        .replace(/listen: "[^"]*"/, `listen: "127.0.0.1:${ports.route}"`)
        .replace(
          /"nats-route:\/\/([^":]+):\d+"/g,
          (route, host) => `"nats-route://127.0.0.1:${routePorts.get(host) ?? 0}"`,
        );
      const confFile = join(local, 'nats.conf');
      writeFileSync(confFile, localConf);
      server.environment = {
        ...environmentOf(service),
        PATH: process.env.PATH,
        NATS_CONF: confFile,
        NATS_RUN_CONF: join(local, 'run.conf'),
      };
    }

    // An empty password stops the start, naming it.
    const emptied = natsPasswordVariable('community');
    const refused = await runFile(['sh', startScript], {
      env: { ...servers[0].environment, [emptied]: '' },
      timeout: 5000,
    });
    if (!refused.code || !refused.stderr.includes(emptied)) {
      problem(`deploy/nats/start.sh starts with ${emptied} empty, or does not name it`);
    }

    for (const server of servers) {
      server.child = spawn('sh', [startScript], { env: server.environment, stdio: 'ignore' });
    }
    const connections = [];
    const url = (server) => `nats://127.0.0.1:${server.ports.client}`;
    try {
      if (!(await waitForHealth(servers))) {
        problem(
          'the servers do not start, or do not become healthy (in the cluster, JetStream ' +
            'current), on deploy/nats/nats.conf with start.sh',
        );
        return;
      }
      for (const server of servers) {
        const varz = await monitor(server, '/varz');
        if (varz.server_name !== server.name) {
          problem(`${server.name} calls itself ${JSON.stringify(varz.server_name)}`);
        }
        if (contracts && varz.cluster?.name !== contracts.NATS_CLUSTER_NAME) {
          problem(`${server.name} is in the cluster ${JSON.stringify(varz.cluster?.name)}`);
        }
        // Distinct peers: nats-server 2.10 and later open several routes to each.
        const routez = await monitor(server, '/routez');
        const peers = new Set((routez.routes ?? []).map((route) => route.remote_id));
        if (peers.size !== servers.length - 1) {
          problem(
            `${server.name} has routes to ${peers.size} server(s), not ${servers.length - 1}`,
          );
        }
        if ((await infoOf(server.ports.client)).tls_required !== true) {
          problem(`${server.name} does not require TLS of its clients`);
        }
      }
      const credentials = (name) => {
        const environment = environmentOf(services[name]);
        return { user: environment.NATS_USER, pass: environment.NATS_PASSWORD };
      };
      const connect = (name, override = {}) =>
        client
          .connect({
            // As NATS_URL: every server.
            servers: servers.map(url),
            ...credentials(name),
            tls: { caFile: join(caDir, 'ca.crt') },
            inboxPrefix: `_INBOX_${name}`,
            reconnect: false,
            ...override,
          })
          .then((connection) => {
            connections.push(connection);
            return connection;
          });
      const byName = {};
      for (const name of NATS_USERS) {
        byName[name] = await connect(name).catch((error) => {
          problem(`${name} cannot connect to the servers with its credentials: ${error.message}`);
          return undefined;
        });
      }
      const wrong = await connect('community', {
        user: 'community',
        pass: credentials('gateway').pass,
      }).then(
        () => true,
        () => false,
      );
      if (wrong) problem("the servers let the community user in with the gateway's password");
      if (!byName.community || !byName.gateway) return;
      // The community service on one server, the gateway on another: a request crosses a route.
      const community = await connect('community', { servers: url(servers[0]) });
      const gateway = await connect('gateway', { servers: url(servers[1]) });

      // Its rate-limit bucket's stream, on all three servers (JETSTREAM_REPLICAS=3).
      const created = await gateway
        .request(
          '$JS.API.STREAM.CREATE.KV_rate_limits',
          JSON.stringify({
            name: 'KV_rate_limits',
            subjects: ['$KV.rate_limits.>'],
            num_replicas: servers.length,
          }),
          { timeout: 10_000 },
        )
        .then((reply) => reply.json())
        .catch((error) => ({ error: { description: error.message } }));
      const copies = created.cluster ? 1 + (created.cluster.replicas ?? []).length : 0;
      if (created.error || copies !== servers.length) {
        problem(
          `a stream of ${servers.length} replicas is not kept on ${servers.length} servers ` +
            `(${created.error?.description ?? `${copies} copies`})`,
        );
      }

      // Its own requests: the community service answers, the gateway asks (once the
      // subscription has reached the gateway's server).
      const own = community.subscribe('community.vote.cast');
      void (async () => {
        for await (const message of own) message.respond('answered');
      })().catch(() => undefined);
      await community.flush();
      let answer = 'not asked';
      for (let attempt = 0; attempt < 20 && answer !== 'answered'; attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await gateway
          .request('community.vote.cast', '{}', { timeout: 2000 })
          .then((reply) => reply.string())
          .catch((error) => error.message);
      }
      if (answer !== 'answered') {
        problem(`the community service cannot answer the gateway's community.vote.cast: ${answer}`);
      }
      // Another's subjects: requesting usage.*, reading debates.* requests.
      const usage = await community.request('usage.stats.get', '{}', { timeout: 2000 }).then(
        () => 'answered',
        (error) => error.message,
      );
      if (!/Permissions Violation/.test(usage)) {
        problem(`the community service's credentials may request usage.stats.get (${usage})`);
      }
      const spy = community.subscribe('debates.debate.get');
      const read = (async () => {
        try {
          for await (const message of spy) return `read ${message.subject}`;
          return 'closed';
        } catch (error) {
          return error.message;
        }
      })();
      await community.flush().catch(() => undefined);
      await gateway.publish('debates.debate.get', '{}');
      await gateway.flush();
      const outcome = await Promise.race([
        read,
        new Promise((resolve) => setTimeout(() => resolve('still subscribed'), 2000)),
      ]);
      if (!/Permissions Violation/.test(String(outcome))) {
        problem(`the community service's credentials may read debates.debate.get (${outcome})`);
      }
    } finally {
      await Promise.all(connections.map((connection) => connection.close().catch(() => undefined)));
      for (const server of servers) server.child?.kill();
    }
  },
);
