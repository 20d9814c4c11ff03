// An .env, the check's own and an operator's: compose accepts it, each service signs in to
// MongoDB as its own user with the password the .env gives it, as it is (whatever its
// characters), each provider's client id has its secret, SMTP_PASSWORD has SMTP_USER,
// RATE_LIMITS is empty, off or JSON, the identity-service client secret is long enough, and
// MODEL_CATALOG, as the generation service receives it, parses and every key its entries name
// reaches the generation service set. The operator's .env is $CHECK_COMPOSE_ENV (what
// `node scripts/check-compose.mjs path/to/.env` sets), else ./.env when there is one.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { root } from '../workspace.mjs';
import { CLIENT_SECRET_MIN, DATABASE_OWNERS, mongoPasswordVariable } from './deployment.mjs';
import {
  environmentOf,
  envText,
  filled,
  parseEnv,
  render,
  renderFilled,
  rule,
} from './compose.mjs';
import { checkModelKeys, readModelCatalog } from './model-catalog.mjs';

/** Whether a MongoDB URL names a user, as the services tell (hasCredentials in libs/nest). */
const namesCredentials = (url) => /^mongodb(\+srv)?:\/\/[^/?#]*@/.test(url);
/** The hosts and options of a mongodb:// URL without credentials. */
function mongoUrlParts(url) {
  const match = /^mongodb:\/\/([^@/?#]+)\/?(\?[^#]*)?$/.exec(url);
  if (!match) return undefined;
  const [, hosts, query = ''] = match;
  return { hosts, options: new URLSearchParams(query.slice(1)) };
}

/**
 * How `service` signs in to MongoDB (serviceMongoUrl in libs/nest): as its own user, with
 * `password` (its secret, as `label` holds it) exactly, through a MONGO_URL at mongo:27017 that
 * authenticates against its own database and names no credentials (the service puts its user and
 * password into it percent-encoded, and refuses to start when the URL names a user too).
 */
function checkMongoSignIn(problem, service, environment, password, label, note) {
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

/**
 * The rules above on an .env (its text, and its rendering). An operator's is also rendered with
 * docker-compose.override.yml when there is one (compose reads it beside the file on its own, so
 * the keys it passes count), and told how compose reads its own characters.
 */
function checkEnvFile(problem, t, label, text, rendered, operator) {
  const env = parseEnv(text);
  if (!rendered.ok) problem(`${label}: docker-compose refuses it:\n${rendered.stderr.trim()}`);
  for (const service of DATABASE_OWNERS) {
    const variable = mongoPasswordVariable(service);
    const password = env.get(variable) ?? '';
    if (rendered.ok && password) {
      checkMongoSignIn(
        problem,
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
  const catalog = rendered.ok
    ? environmentOf(rendered.project.services?.generation).MODEL_CATALOG
    : env.get('MODEL_CATALOG');
  const entries = readModelCatalog(problem, t, label, catalog);
  if (entries && entries.length > 0 && rendered.ok) {
    const override = join(root, 'docker-compose.override.yml');
    const withOverride =
      operator && existsSync(override) ? render(text, 'operator-override', [override]) : rendered;
    if (!withOverride.ok) {
      problem(
        `${label}: with ${override}, docker-compose refuses it:\n${withOverride.stderr.trim()}`,
      );
    } else {
      checkModelKeys(problem, label, entries, withOverride);
    }
  }
  const clientSecret = env.get('IDENTITY_CLIENT_SECRET') ?? '';
  if (clientSecret && clientSecret.length < CLIENT_SECRET_MIN) {
    problem(`${label}: IDENTITY_CLIENT_SECRET is shorter than ${CLIENT_SECRET_MIN} characters`);
  }
}

rule(
  "the check's own .env passes as an operator's must: each service signs in to MongoDB as its " +
    'own user, with its own password full of @ / : % intact',
  (problem, t) => {
    checkEnvFile(problem, t, "the check's .env", envText(filled), renderFilled(), false);
  },
);

const operatorFile = process.env.CHECK_COMPOSE_ENV
  ? resolve(process.env.CHECK_COMPOSE_ENV)
  : join(root, '.env');

rule(`the operator's .env (${operatorFile}) passes the same rules`, (problem, t) => {
  if (!process.env.CHECK_COMPOSE_ENV && !existsSync(operatorFile)) {
    t.skip(`there is no ${operatorFile}`);
    return;
  }
  if (!existsSync(operatorFile)) {
    problem(`${operatorFile}: no such file`);
    return;
  }
  const text = readFileSync(operatorFile, 'utf8');
  checkEnvFile(problem, t, operatorFile, text, render(text, 'operator'), true);
});
