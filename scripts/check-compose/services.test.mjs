// What each rendered service gets: the secrets where they must be and nowhere else; the
// deployables built, health-checked and started in order; healthy dependencies; pinned images;
// e-mail verification with the mail sent by Keycloak alone; the gateway's limits.
import { KEYCLOAK_VERSION } from '../keycloak.mjs';
import { NATS_SERVERS, NATS_URL } from '../nats-config.mjs';
import { DEPLOYABLES, SECRETS } from './deployment.mjs';
import {
  conditionOf,
  environmentOf,
  filled,
  filledServices,
  hasHealthcheck,
  packageNameOf,
  render,
  rule,
  secretValues,
  unescape,
} from './compose.mjs';

/** Images pinned to a release: how many numbers their versions have (PostgreSQL's have two). */
const VERSION_PARTS = { postgres: 2 };
const DEFAULT_VERSION_PARTS = 3;

rule('each secret reaches exactly the services that need it, intact, and no other', (problem) => {
  const services = filledServices();
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
});

rule(
  'each deployable is built from deploy/docker/Dockerfile with its own project and package, ' +
    'health-checked, given the three NATS servers and a copy of its streams on each, and started ' +
    'once its dependencies are healthy',
  (problem) => {
    const services = filledServices();
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
      const packageName = packageNameOf(dir);
      if (args.PROJECT !== name || args.PROJECT_DIR !== dir || args.PACKAGE !== packageName) {
        problem(
          `${name} is built with PROJECT=${args.PROJECT} PROJECT_DIR=${args.PROJECT_DIR} ` +
            `PACKAGE=${args.PACKAGE}, not ${name} ${dir} ${packageName}`,
        );
      }
      if (!hasHealthcheck(service)) problem(`${name} is not health-checked`);
      const environment = environmentOf(service);
      if (environment.NATS_URL !== NATS_URL) {
        problem(`${name} is given the NATS URL ${environment.NATS_URL}, not ${NATS_URL}`);
      }
      // The services' streams and the gateway's rate-limit bucket.
      if (environment.JETSTREAM_REPLICAS !== String(NATS_SERVERS.length)) {
        problem(
          `${name} keeps its JetStream copies on ${environment.JETSTREAM_REPLICAS || 'one'} ` +
            `server(s), not on all ${NATS_SERVERS.length} (JETSTREAM_REPLICAS)`,
        );
      }
      const dependencies = Object.entries(service.depends_on ?? {});
      if (dependencies.length === 0) problem(`${name} depends on nothing`);
      for (const [target, dependency] of dependencies) {
        if (conditionOf(dependency) !== 'service_healthy') {
          problem(`${name} starts before ${target} is healthy`);
        }
      }
    }
  },
);

rule(
  'every healthy dependency has a healthcheck, and every service a service points at ' +
    '(each server of nats://nats-1:4222,…, mongodb://mongo, http://keycloak, …) is a healthy ' +
    'dependency of it',
  (problem) => {
    const services = filledServices();
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
      // Directly or through another.
      const reachable = new Set();
      const pending = [...healthyDependencies(name)];
      while (pending.length > 0) {
        const next = pending.pop();
        if (reachable.has(next)) continue;
        reachable.add(next);
        pending.push(...healthyDependencies(next));
      }
      for (const [variable, setting] of Object.entries(environmentOf(service))) {
        // A URL, or several separated by commas (NATS_URL's servers).
        for (const url of setting.split(',')) {
          const host = /^(?:jdbc:)?[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^:/?#]+)/.exec(url)?.[1];
          if (host && host !== name && services[host] && !reachable.has(host)) {
            problem(`${name} uses ${host} (${variable}) but does not wait for it to be healthy`);
          }
        }
      }
    }
  },
);

rule("the images are pinned to a release, Keycloak's to the one the tests run", (problem) => {
  for (const [name, service] of Object.entries(filledServices())) {
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
});

rule(
  'the identity service asks for e-mail verification, and no service but Keycloak gets SMTP_*',
  (problem) => {
    const services = filledServices();
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
  },
);

rule(
  'the gateway gets RATE_LIMITS and TRUST_PROXY from the .env intact, empty unless set',
  (problem) => {
    const limits = new Map(filled);
    limits.set('RATE_LIMITS', '{"signUp":{"address":"3/1h"},"vote":{"account":null}}');
    limits.set('TRUST_PROXY', '127.0.0.1,172.16.0.0/12');
    const given = render(limits, 'gateway-limits');
    if (!given.ok) {
      problem(`does not render with RATE_LIMITS and TRUST_PROXY set:\n${given.stderr}`);
    }
    const cases = [
      [environmentOf(filledServices().gateway), filled],
      ...(given.ok ? [[environmentOf(given.project.services?.gateway), limits]] : []),
    ];
    for (const [environment, env] of cases) {
      for (const variable of ['RATE_LIMITS', 'TRUST_PROXY']) {
        if (environment[variable] !== env.get(variable)) {
          problem(
            `gateway's ${variable} is ${JSON.stringify(environment[variable])}, not the .env's ` +
              JSON.stringify(env.get(variable)),
          );
        }
      }
    }
  },
);
