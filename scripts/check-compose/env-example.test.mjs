// docker-compose.yml and .env.example agree on the variables; compose refuses to render while a
// required secret or setting is empty, and renders once every one is filled.
import { SECRETS, SETTINGS } from './deployment.mjs';
import {
  compose,
  composeRelease,
  composeText,
  example,
  exampleText,
  filled,
  render,
  renderFilled,
  rule,
} from './compose.mjs';

/** The variables the file reads: outside comments; `$${…}` is the container's own shell. */
const read = new Set(
  [
    ...composeText
      .split('\n')
      .filter((line) => !/^\s*#/.test(line))
      .join('\n')
      .matchAll(/(?<!\$)\$\{([A-Za-z0-9_]+)/g),
  ].map((match) => match[1]),
);

rule(
  'every variable docker-compose.yml reads is listed in .env.example, and every one listed is read',
  (problem) => {
    for (const variable of read) {
      if (!example.has(variable)) problem(`${variable} is read but not listed in .env.example`);
    }
    for (const variable of example.keys()) {
      if (!read.has(variable)) problem(`${variable} is listed in .env.example but never read`);
    }
  },
);

rule('every secret is listed in .env.example, empty', (problem) => {
  for (const secret of Object.keys(SECRETS)) {
    if (!example.has(secret)) problem(`the secret ${secret} is not listed in .env.example`);
    else if (example.get(secret) !== '') problem(`.env.example gives the secret ${secret} a value`);
  }
});

rule(
  'every setting .env.example leaves for the operator (the mail server) is listed',
  (problem) => {
    for (const setting of Object.keys(SETTINGS)) {
      if (!example.has(setting)) problem(`${setting} is not listed in .env.example`);
    }
  },
);

rule('compose refuses to render .env.example as it is (its secrets empty)', (problem) => {
  if (render(exampleText, 'example').ok) {
    problem('renders with the secrets of .env.example left empty');
  }
});

rule('compose renders with every secret and setting filled', (problem, t) => {
  const base = renderFilled();
  if (!base.ok) problem(`does not render with the secrets filled:\n${base.stderr}`);
  else t.diagnostic(`rendered by ${compose.join(' ')} ${composeRelease}`);
});

rule('compose refuses to render while any required secret or setting is empty', (problem) => {
  const required = Object.entries({ ...SECRETS, ...SETTINGS }).filter(
    ([, { required }]) => required,
  );
  for (const [variable] of required) {
    if (render(new Map([...filled, [variable, '']]), `without-${variable}`).ok) {
      problem(`renders with ${variable} empty`);
    }
  }
});
