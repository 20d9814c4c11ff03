// Checks docker-compose.yml without a container engine: runs the suite scripts/check-compose/
// (node:test, one test per rule, named after it), which renders the file with
// `docker-compose config` (Debian's 1.29, or Compose v2 and later with COMPOSE='docker compose')
// and checks the rendered services for what would break a real start: the variables and
// .env.example, the secrets and where they arrive, the MongoDB and NATS sign-ins, the deployables'
// builds, healthchecks and start order, the images' pins, Keycloak (its proxy headers; its
// healthcheck, identity providers and mail run against stand-ins), the models, the three NATS
// servers run clustered on stand-ins of their containers; each file of the suite says what its
// rules are.
//
// With an .env beside the file (or the file given as the argument), that .env is checked too: it
// renders, its MongoDB passwords arrive intact, its client ids have their secrets, and more
// (scripts/check-compose/env-file.test.mjs).
//
// The catalogues are parsed with the contracts' ModelCatalog (the generation service's own
// schema) when the workspace is built (`npx nx build contracts`); on a fresh clone, before any
// install, they are only checked to be JSON arrays of entries, and the tests say so.
//
//   node scripts/check-compose.mjs [path/to/.env]
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { root } from './workspace.mjs';

const [envFile] = process.argv.slice(2);
const result = spawnSync(process.execPath, ['--test', 'scripts/check-compose/*.test.mjs'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...(envFile ? { CHECK_COMPOSE_ENV: resolve(envFile) } : {}) },
});
process.exit(result.status ?? 1);
