// The models: MODEL_CATALOG the generation service's alone, intact, its keys there; the models
// example of docs/deploy-compose.md rendered with its override; the local model (the optional
// profile) inside the network, and LOCAL_MODEL_SERVER the generation service's alone.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../workspace.mjs';
import { LOCAL_MODEL } from './deployment.mjs';
import {
  environmentOf,
  filled,
  filledService,
  filledServices,
  hasHealthcheck,
  packageNameOf,
  parseEnv,
  render,
  rule,
  work,
} from './compose.mjs';
import { checkModelKeys, readModelCatalog } from './model-catalog.mjs';

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

/** Checks that `variable` reaches the generation service alone, empty while the .env's is. */
function generationAlone(problem, variable) {
  for (const [name, service] of Object.entries(filledServices())) {
    const value = environmentOf(service)[variable];
    if (name === 'generation' && value !== '') {
      problem(`generation's ${variable} is ${JSON.stringify(value)} with the .env's empty`);
    } else if (name !== 'generation' && value !== undefined) {
      problem(`${name} gets ${variable}: only the generation service reads it`);
    }
  }
}

rule(
  'MODEL_CATALOG reaches the generation service alone, empty unless the .env sets it, intact ' +
    'when it does, and the keys its models name with it',
  (problem, t) => {
    generationAlone(problem, 'MODEL_CATALOG');
    const label = "the check's MODEL_CATALOG";
    const rendered = render(
      new Map([...filled, ['MODEL_CATALOG', CHECK_CATALOG]]),
      'model-catalog',
    );
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
    const entries = readModelCatalog(problem, t, label, received);
    if (entries) checkModelKeys(problem, label, entries, rendered);
  },
);

/** The first fenced block of docs/deploy-compose.md whose first line is `firstLine`. */
function documentedBlock(page, firstLine) {
  return [...page.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)]
    .map((match) => match[1])
    .find((block) => block.split('\n')[0].trim() === firstLine);
}

rule(
  "docs/deploy-compose.md's models example renders, its catalogue parses, its keys reach the " +
    'generation service alone, and compose refuses while one is empty, naming it',
  (problem, t) => {
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
      problem,
      t,
      label,
      environmentOf(rendered.project.services?.generation).MODEL_CATALOG,
    );
    if (!entries) return;
    if (entries.length === 0) problem(`${label} sets no MODEL_CATALOG`);
    checkModelKeys(problem, label, entries, rendered);
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
  },
);

rule(
  `the local model is the Dockerfile's model stage of ${LOCAL_MODEL.project}, in the profile ` +
    `${LOCAL_MODEL.profile}, health-checked, inside the network, its download on a named volume`,
  (problem) => {
    const model = filledService(LOCAL_MODEL.service);
    if (!(model.profiles ?? []).includes(LOCAL_MODEL.profile)) {
      problem(
        `${LOCAL_MODEL.service} is not in the profile ${LOCAL_MODEL.profile}: every ` +
          '`docker compose up` would start it and its 1.1 GB download',
      );
    }
    const packageName = packageNameOf(LOCAL_MODEL.dir);
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
  },
);

rule(
  'LOCAL_MODEL_SERVER reaches the generation service alone, empty unless the .env names the ' +
    `server, and ${LOCAL_MODEL.url} intact when it does`,
  (problem) => {
    generationAlone(problem, 'LOCAL_MODEL_SERVER');
    const withModel = render(
      new Map([...filled, ['LOCAL_MODEL_SERVER', LOCAL_MODEL.url]]),
      'model',
    );
    const given = withModel.ok
      ? environmentOf(withModel.project.services?.generation).LOCAL_MODEL_SERVER
      : withModel.stderr;
    if (given !== LOCAL_MODEL.url) {
      problem(
        `with LOCAL_MODEL_SERVER=${LOCAL_MODEL.url} generation gets ${JSON.stringify(given)}`,
      );
    }
  },
);
