// Checks docker-compose.yml without a container engine (Debian's docker-compose validates and
// renders it): every variable it reads is listed in .env.example; with the secrets left empty
// it refuses to render, naming one; with them filled it renders, and each of the six
// deployables is built from deploy/docker/Dockerfile, health-checked and started only once
// what it depends on is healthy.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './workspace.mjs';

const problems = [];
const compose = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const example = readFileSync(join(root, '.env.example'), 'utf8');

const listed = new Set(
  example
    .split('\n')
    .map((line) => /^([A-Z0-9_]+)=/.exec(line)?.[1])
    .filter(Boolean),
);
const used = new Set([...compose.matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1]));
for (const variable of used) {
  if (!listed.has(variable)) problems.push(`${variable} is used but not in .env.example`);
}
const secrets = example
  .split('\n')
  .filter((line) => /^[A-Z0-9_]+=$/.test(line))
  .map((line) => line.slice(0, -1));

function render(envFile) {
  const result = spawnSync(
    'docker-compose',
    ['--env-file', envFile, '-f', 'docker-compose.yml', 'config'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  if (result.error) {
    console.error(
      `docker-compose.yml cannot be checked: ${result.error.message} ` +
        "(install Debian's docker-compose package; .ci/run does)",
    );
    process.exit(1);
  }
  return result;
}

const empty = render(join(root, '.env.example'));
if (empty.status === 0) problems.push('renders with the secrets of .env.example left empty');
else if (!/Missing mandatory value/.test(empty.stderr)) {
  problems.push(`refused the empty secrets for another reason:\n${empty.stderr}`);
}

const dir = mkdtempSync(join(tmpdir(), 'compose-check-'));
try {
  const filled = join(dir, '.env');
  writeFileSync(
    filled,
    example.replace(/^([A-Z0-9_]+)=$/gm, (_, name) => `${name}=check-only-${name.toLowerCase()}`),
  );
  const result = render(filled);
  if (result.status !== 0)
    problems.push(`does not render with the secrets filled:\n${result.stderr}`);
  const rendered = result.stdout;
  for (const deployable of ['identity', 'usage', 'generation', 'debates', 'community', 'gateway']) {
    const start = rendered.indexOf(`\n  ${deployable}:\n`);
    const end = rendered.slice(start + 3).search(/\n {2}[a-z-]+:\n/);
    const block = rendered.slice(start, end < 0 ? undefined : start + 3 + end);
    if (start < 0) {
      problems.push(`${deployable} is not a service`);
      continue;
    }
    for (const [fact, pattern] of [
      ['built from deploy/docker/Dockerfile', /dockerfile: deploy\/docker\/Dockerfile/],
      ['health-checked', /healthcheck:/],
      ['started after its dependencies are healthy', /condition: service_healthy/],
      ['given the NATS URL', /NATS_URL: nats:\/\/nats:4222/],
    ]) {
      if (!pattern.test(block)) problems.push(`${deployable} is not ${fact}`);
    }
  }
  // No secret is written into the file itself: each comes from the environment.
  for (const secret of secrets) {
    if (compose.includes(`check-only-${secret.toLowerCase()}`))
      problems.push(`${secret} is literal`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (problems.length > 0) {
  process.stderr.write(
    `docker-compose.yml: ${problems.length} problem(s)\n- ${problems.join('\n- ')}\n`,
  );
  process.exit(1);
}
process.stdout.write(
  `docker-compose.yml: valid (${used.size} variables, all in .env.example; ${secrets.length} left ` +
    'for the operator to fill, refused while empty)\n',
);
