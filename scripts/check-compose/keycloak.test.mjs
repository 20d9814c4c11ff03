// Keycloak as compose runs it: the realm's placeholders in its environment, the realm imported
// at start, the password blacklists mounted, the X-Forwarded-* headers of a TLS proxy believed
// from private addresses only; its healthcheck run against stand-ins of its two ports; its
// entrypoint, on a stand-in kc.sh, enabling each identity provider exactly when its client id is
// set.
import { createServer } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { environmentOf, filled, filledService, rule, runAsync, unescape } from './compose.mjs';
import { keycloakStart, placeholders, realm } from './keycloak-entrypoint.mjs';

rule(
  "every placeholder of the realm file without a default reaches Keycloak's environment",
  (problem) => {
    const environment = environmentOf(filledService('keycloak'));
    for (const [, name, fallback] of placeholders) {
      if (fallback === undefined && !(name in environment)) {
        problem(`the realm's \${${name}} is not in keycloak's environment`);
      }
    }
  },
);

rule('Keycloak starts importing the realm, with its health endpoints on', (problem) => {
  const keycloak = filledService('keycloak');
  const command = (Array.isArray(keycloak.command) ? keycloak.command : [keycloak.command]).map(
    unescape,
  );
  if (!command.includes('start') || !command.includes('--import-realm')) {
    problem(`keycloak does not start importing the realm (command: ${command.join(' ')})`);
  }
  if (environmentOf(keycloak).KC_HEALTH_ENABLED !== 'true') {
    problem('keycloak has KC_HEALTH_ENABLED off');
  }
});

/** The private ranges (RFC 1918, loopback, IPv6 unique-local): where a proxy of the host is. */
const PRIVATE_RANGES = [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['::1', 128],
  ['fc00::', 7],
];

/** Whether `entry` (an address, or a range in CIDR notation) lies inside a private range. */
function isPrivate(entry) {
  const [address = '', prefixText] = entry.split('/');
  const family = isIP(address);
  if (family === 0) return false;
  const prefix = prefixText === undefined ? (family === 4 ? 32 : 128) : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return PRIVATE_RANGES.some(([start, bits]) => {
    if (isIP(start) !== family || prefix < bits) return false;
    const range = new BlockList();
    range.addSubnet(start, bits, type);
    return range.check(address, type);
  });
}

rule(
  "Keycloak reads a TLS proxy's X-Forwarded-* headers, and believes them from private addresses only",
  (problem) => {
    const environment = environmentOf(filledService('keycloak'));
    // Without them, behind a proxy that ends TLS, every request is plain HTTP from the proxy.
    if (environment.KC_PROXY_HEADERS !== 'xforwarded') {
      problem(
        `keycloak has KC_PROXY_HEADERS=${JSON.stringify(environment.KC_PROXY_HEADERS)}, not ` +
          'xforwarded: behind a TLS proxy it would take every request for plain HTTP from the proxy',
      );
    }
    // Keycloak believes every address unless told: a client of the published port could then
    // say it is anyone, over any scheme.
    const trusted = String(environment.KC_PROXY_TRUSTED_ADDRESSES ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (trusted.length === 0) {
      problem("keycloak has no KC_PROXY_TRUSTED_ADDRESSES: it would believe anyone's headers");
    }
    for (const entry of trusted) {
      if (!isPrivate(entry)) {
        problem(`keycloak believes X-Forwarded-* from ${entry}, not a private address or range`);
      }
    }
  },
);

rule("Keycloak mounts each list of the realm's passwordBlacklist policy", (problem) => {
  // Where Keycloak looks for them: without one, it cannot parse the realm's password policy.
  const mounts = (filledService('keycloak').volumes ?? []).map((volume) =>
    typeof volume === 'string' ? volume : `${volume.source}:${volume.target}`,
  );
  for (const [, name] of realm.passwordPolicy.matchAll(/passwordBlacklist\(([^)]+)\)/g)) {
    const mounted = mounts.some((mount) =>
      mount.includes(`deploy/keycloak/${name}:/opt/keycloak/data/password-blacklists/${name}`),
    );
    if (!mounted) problem(`keycloak does not mount deploy/keycloak/${name} among its blacklists`);
  }
});

rule(
  "Keycloak's healthcheck passes when readiness and the realm answer 200, and fails on a 503 " +
    'from either',
  async (problem) => {
    const test = (filledService('keycloak').healthcheck?.test ?? []).map(unescape);
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
        const answer = known
          ? answers[request.url]
          : { status: 404, body: '{"error":"not found"}' };
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
    const realmUp = { status: 200, body: '{"issuer":"http://localhost:8080/realms/debate"}' };
    const bootstrapping = { status: 503, body: 'Bootstrap in progress. Retry in 5 seconds.' };
    const run = () => runAsync(local, { PATH: process.env.PATH ?? '' });
    try {
      answers = { [READY]: ready, [REALM]: realmUp };
      const up = await run();
      if (up.code !== 0) {
        problem(
          "keycloak's healthcheck fails while Keycloak and its realm answer 200: " +
            up.stderr.trim(),
        );
      }
      answers = { [READY]: notReady, [REALM]: realmUp };
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
  },
);

rule(
  "Keycloak's entrypoint enables each identity provider of the realm exactly when its client id " +
    'is set, and refuses a client id without its secret',
  async (problem) => {
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
  },
);
