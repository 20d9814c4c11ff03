// What docker-compose.yml must deploy, as the suite checks it: the deployables, the services with
// a database, the secrets and where each must arrive, the settings the check fills in.
import { NATS_SERVERS, natsPasswordVariable } from '../nats-config.mjs';

/** The local model's service, its profile, and where the generation service is told it is. */
export const LOCAL_MODEL = {
  service: 'model',
  profile: 'local-model',
  dir: 'libs/embedded-model',
  project: 'embedded-model',
  url: 'http://model:8090',
};

/** The deployables and their folders. */
export const DEPLOYABLES = {
  identity: 'services/identity',
  usage: 'services/usage',
  generation: 'services/generation',
  debates: 'services/debates',
  community: 'services/community',
  gateway: 'gateway',
};
/**
 * The services with a MongoDB database (and user) of their own, each named after it. (An
 * operator runs this suite on a fresh clone, before any install: hence not the contracts'
 * serviceNames, which need a build.)
 */
export const DATABASE_OWNERS = Object.keys(DEPLOYABLES).filter((name) => name !== 'gateway');
export const mongoPasswordVariable = (service) => `MONGO_${service.toUpperCase()}_PASSWORD`;
/** The deployables with a NATS user of their own (the contracts' natsDeployables): all six. */
export const NATS_USERS = Object.keys(DEPLOYABLES);

/**
 * Every secret: whether compose must refuse to start without it, and exactly where it must
 * arrive ([service, environment variable]). Anywhere else, it has leaked.
 */
export const SECRETS = {
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
          ...NATS_SERVERS.map((server) => [server, natsPasswordVariable(deployable)]),
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
export const SETTINGS = {
  SMTP_HOST: { required: true, value: 'smtp.example.org' },
  SMTP_FROM: { required: true, value: 'debate@example.org' },
  SMTP_USER: { required: false, value: 'debate-mailer' },
};

/** The identity-service client secret's least length (the identity service refuses shorter). */
export const CLIENT_SECRET_MIN = 16;
