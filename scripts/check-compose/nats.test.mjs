// The broker in docker-compose.yml: each deployable's own NATS user, TLS between the services and
// NATS, and the configuration the broker runs (deploy/nats/nats.conf, generated from the
// contracts' permission map).
//
// On the rendered file: every deployable signs in as its own user (NATS_USER is its name; its
// password, NATS_PASSWORD, is one of the SECRETS) and trusts the broker's certificate authority
// (NATS_TLS_CA_FILE, a file of the nats-ca volume, mounted read-only); nats-certs makes the
// certificates into the volumes the broker and the services mount, and the broker starts after
// it, on deploy/nats/start.sh, with the certificate where nats.conf reads it; no one but the
// broker and nats-certs mounts the volume of the private keys; nats.conf reads exactly the
// passwords the broker's environment gets, and is what the permission map gives.
//
// Then, as for Keycloak, the broker is run here on stand-ins of its containers: nats-certs's
// script with this machine's openssl, start.sh with its rendered environment and this machine's
// nats-server (paths and ports moved into a temporary folder). Each deployable connects with the
// credentials compose gives it, over TLS, trusting the authority the script made; the server
// requires TLS; a wrong password is refused; the community service's credentials can neither
// request usage.* nor read debates.* requests, and can answer its own, which the gateway's can
// ask; start.sh refuses an empty password, naming it.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { NATS_CONF, natsPasswordVariable, renderNatsConf } from '../nats-config.mjs';
import { freePort, hasCommand, root } from '../workspace.mjs';
import { NATS_USERS } from './deployment.mjs';
import { contracts, environmentOf, filledService, filledServices, rule, work } from './compose.mjs';

/** Where the broker's certificate authority is mounted, and from which volume. */
const CA_VOLUME = 'nats-ca';
/** The volume of the private keys (the authority's and the server's): the broker's alone. */
const TLS_VOLUME = 'nats-tls';

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

rule(
  "each deployable signs in to NATS as its own user and trusts the broker's authority, mounted " +
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

rule("no service but nats and nats-certs mounts the broker's private keys", (problem) => {
  for (const [name, service] of Object.entries(filledServices())) {
    if (name !== 'nats' && name !== 'nats-certs' && mountOf(service, TLS_VOLUME)) {
      problem(`${name} mounts ${TLS_VOLUME}, the broker's private keys`);
    }
  }
});

rule(
  'nats-certs writes the certificates where the broker and the services read them, and the ' +
    'broker waits for it',
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
    const condition = filledService('nats').depends_on?.['nats-certs']?.condition;
    if (condition !== 'service_completed_successfully') {
      problem('nats does not wait for nats-certs to complete successfully');
    }
  },
);

rule(
  'the broker starts on deploy/nats/start.sh, with its certificate where nats.conf reads it and ' +
    'every password nats.conf reads',
  (problem) => {
    const nats = filledService('nats');
    const config = bindOf(nats, 'deploy/nats');
    const command = [nats.command ?? []].flat();
    if (!config || command.join(' ') !== `/bin/sh ${config.target}/start.sh`) {
      problem("nats does not start with deploy/nats/start.sh from the repository's folder");
    }
    const certFile = /cert_file: "([^"]+)"/.exec(conf)?.[1] ?? '';
    const tls = mountOf(nats, TLS_VOLUME);
    if (!tls || !certFile.startsWith(`${tls.target}/`)) {
      problem(`nats.conf reads its certificate from ${certFile}, not from ${TLS_VOLUME}`);
    }
    const variables = passwordVariablesOf(conf);
    const expected = NATS_USERS.map(natsPasswordVariable).sort();
    if (variables.join() !== expected.join()) {
      problem(`nats.conf reads the passwords ${variables.join(', ')}, not ${expected.join(', ')}`);
    }
    const natsEnvironment = environmentOf(nats);
    for (const variable of variables) {
      if (!natsEnvironment[variable]) problem(`nats reads ${variable} but compose does not set it`);
    }
  },
);

rule("deploy/nats/nats.conf is what the contracts' permission map gives", async (problem, t) => {
  if (!contracts) {
    t.skip('the contracts are not built (`npx nx build contracts`)');
    return;
  }
  if ((await renderNatsConf()) !== conf) {
    problem(
      'deploy/nats/nats.conf is not what the permission map gives: run ' +
        '`node scripts/nats-config.mjs --write`',
    );
  }
});

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

async function waitForHealth(port, child) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) return false;
    const ok = await fetch(`http://127.0.0.1:${port}/healthz?js-enabled-only=true`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

rule(
  'the broker, run on stand-ins of its containers, lets each deployable in over TLS with its ' +
    'credentials and keeps it to its own subjects',
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
    for (const folder of [tlsDir, caDir, join(dir, 'data')]) mkdirSync(folder, { recursive: true });
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
    const nats = services.nats;
    const tlsTarget = mountOf(nats, TLS_VOLUME)?.target ?? '/etc/nats-tls';
    const [port, httpPort] = [await freePort(), await freePort()];
    const localConf = conf
      .replaceAll(`"${tlsTarget}/`, `"${tlsDir}/`)
      .replace(/store_dir: "[^"]*"/, `store_dir: "${join(dir, 'data')}"`)
      .replace(/^port: \d+$/m, `port: ${port}`)
      .replace(/^http_port: \d+$/m, `http_port: ${httpPort}`);
    const confFile = join(dir, 'nats.conf');
    writeFileSync(confFile, localConf);
    const startScript = join(root, 'deploy/nats/start.sh');
    const natsEnvironment = {
      ...environmentOf(nats),
      PATH: process.env.PATH,
      NATS_CONF: confFile,
      NATS_RUN_CONF: join(dir, 'run.conf'),
    };

    // An empty password stops the start, naming it.
    const emptied = natsPasswordVariable('community');
    const refused = await runFile(['sh', startScript], {
      env: { ...natsEnvironment, [emptied]: '' },
      timeout: 5000,
    });
    if (!refused.code || !refused.stderr.includes(emptied)) {
      problem(`deploy/nats/start.sh starts with ${emptied} empty, or does not name it`);
    }

    const server = spawn('sh', [startScript], { env: natsEnvironment, stdio: 'ignore' });
    const connections = [];
    try {
      if (!(await waitForHealth(httpPort, server))) {
        problem('the broker does not start on deploy/nats/nats.conf with start.sh');
        return;
      }
      if ((await infoOf(port)).tls_required !== true) {
        problem('the broker does not require TLS of its clients');
      }
      const credentials = (name) => {
        const environment = environmentOf(services[name]);
        return { user: environment.NATS_USER, pass: environment.NATS_PASSWORD };
      };
      const connect = (name, override = {}) =>
        client
          .connect({
            servers: `nats://127.0.0.1:${port}`,
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
          problem(`${name} cannot connect to the broker with its credentials: ${error.message}`);
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
      if (wrong) problem("the broker lets the community user in with the gateway's password");
      const { community, gateway } = byName;
      if (!community || !gateway) return;

      // Its own requests: the community service answers, the gateway asks.
      const own = community.subscribe('community.vote.cast');
      void (async () => {
        for await (const message of own) message.respond('answered');
      })().catch(() => undefined);
      await community.flush();
      const answer = await gateway
        .request('community.vote.cast', '{}', { timeout: 2000 })
        .then((reply) => reply.string())
        .catch((error) => error.message);
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
      server.kill();
    }
  },
);
