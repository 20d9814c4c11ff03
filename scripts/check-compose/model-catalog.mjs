// MODEL_CATALOG as the generation service reads it, and the keys its entries name: shared by the
// catalogue's own rules and the .env rules.
import { contracts, environmentOf } from './compose.mjs';

/**
 * MODEL_CATALOG as the generation service receives it (`value`): its entries, or undefined after
 * naming each problem the service would refuse to start on. With the contracts built, parsed with
 * their ModelCatalog; without, checked to be a JSON array only (and the test `t` says so).
 */
export function readModelCatalog(problem, t, label, value) {
  const text = (value ?? '').trim();
  if (!text) return [];
  const refused = '(the generation service refuses to start)';
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    problem(`${label}: MODEL_CATALOG is not JSON ${refused}`);
    return undefined;
  }
  if (!contracts) {
    t.diagnostic(
      `${label}: checked as a JSON array only (build the contracts, \`npx nx build contracts\`, ` +
        'to parse it with their ModelCatalog)',
    );
    if (Array.isArray(parsed) && parsed.every((entry) => entry && typeof entry === 'object')) {
      return parsed;
    }
    problem(`${label}: MODEL_CATALOG is not a JSON array of models ${refused}`);
    return undefined;
  }
  const checked = contracts.ModelCatalog.safeParse(parsed);
  if (checked.success) return checked.data;
  for (const issue of checked.error.issues) {
    const [index, ...field] = issue.path;
    const id = typeof index === 'number' ? parsed[index]?.id : undefined;
    const where =
      typeof index === 'number'
        ? `MODEL_CATALOG[${index}]${typeof id === 'string' ? ` ("${id}")` : ''}` +
          (field.length > 0 ? `.${field.join('.')}` : '')
        : 'MODEL_CATALOG';
    problem(`${label}: ${where}: ${issue.message} ${refused}`);
  }
  return undefined;
}

/**
 * Every key variable the catalogue's entries name reaches the generation service of `rendered`
 * set (else the service refuses to start, naming it), and its key no other service.
 */
export function checkModelKeys(problem, label, entries, rendered) {
  const services = rendered.project.services ?? {};
  const generation = environmentOf(services.generation);
  for (const entry of entries) {
    const variable = entry.apiKeyEnv;
    if (typeof variable !== 'string') continue;
    const key = generation[variable];
    if (!key) {
      const passed = variable in generation;
      const how = passed
        ? `set ${variable} in .env`
        : "add it to generation's environment in docker-compose.override.yml " +
          '(docs/deploy-compose.md), and set it in .env';
      problem(
        `${label}: model "${entry.id}" reads its key from ${variable}, which the generation ` +
          `service ${passed ? 'gets empty' : 'does not get'}: it would refuse ` +
          `to start (${how})`,
      );
      continue;
    }
    // (A key too short to tell from other settings is not looked for.)
    for (const [name, service] of Object.entries(key.length >= 8 ? services : {})) {
      if (name === 'generation') continue;
      for (const [other, setting] of Object.entries(environmentOf(service))) {
        if (setting.includes(key)) {
          problem(`${label}: the key in ${variable} leaks to ${name} as ${other}`);
        }
      }
    }
  }
}
