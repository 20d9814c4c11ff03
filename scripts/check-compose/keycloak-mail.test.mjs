// Keycloak's mail, as its entrypoint (run here on a stand-in kc.sh) starts it: every placeholder
// of the realm set in the environment kc.sh starts with, SMTP_AUTH following SMTP_USER (whatever
// the .env says of SMTP_AUTH), SMTP_PASSWORD without SMTP_USER refused naming both, and the
// realm's smtpServer, filled from that environment as Keycloak's import fills it, the server the
// .env names, with compose's defaults for what it leaves empty.
import { filled, rule, secretValues } from './compose.mjs';
import { keycloakStart, placeholders, realm } from './keycloak-entrypoint.mjs';

/** A realm file's value with its placeholders filled from `environment`, as Keycloak's import does. */
const fillPlaceholders = (value, environment) =>
  String(value).replace(/\$\{([A-Za-z0-9_]+)(?::([^}]*))?\}/g, (text, name, fallback) =>
    environment[name] !== undefined ? environment[name] : (fallback ?? text),
  );

let userStart;
/** Keycloak's start on the check's .env, the mail server's user and password set (made once). */
const startWithUser = () => (userStart ??= keycloakStart(filled, 'smtp-user'));

/** A start of Keycloak (`when`: with what .env), or undefined after naming why it failed. */
async function started(problem, start, when) {
  const result = await start;
  if (result.error || result.code !== 0) {
    problem(`keycloak does not start ${when}: ${result.error ?? result.stderr}`);
    return undefined;
  }
  return result;
}

/**
 * Compares the realm's smtpServer, filled from the environment of a start, with what it must
 * be, naming each field that differs.
 */
function compareSmtpServer(problem, label, start, expected) {
  const server = realm.smtpServer;
  if (!server || typeof server !== 'object') {
    problem('the realm file has no smtpServer: Keycloak could not send the verification mail');
    return;
  }
  for (const [key, value] of Object.entries(expected)) {
    const actual = key in server ? fillPlaceholders(server[key], start.environment) : undefined;
    if (actual !== value) {
      problem(
        `${label}: the realm's smtpServer.${key} is imported as ` +
          `${JSON.stringify(actual)}, not ${JSON.stringify(value)}`,
      );
    }
  }
}

rule(
  "every placeholder of the realm file is set in the environment Keycloak's entrypoint starts " +
    'kc.sh with',
  async (problem) => {
    const start = await started(problem, startWithUser(), 'with SMTP_USER set');
    if (!start) return;
    for (const [, name] of placeholders) {
      if (start.environment[name] === undefined) {
        problem(
          `the realm's \${${name}} is not in the environment keycloak's entrypoint starts kc.sh ` +
            'with: Keycloak imports its default',
        );
      }
    }
  },
);

rule(
  "with SMTP_USER set, Keycloak logs in to the .env's mail server with exactly its user and " +
    'password',
  async (problem) => {
    const start = await started(problem, startWithUser(), 'with SMTP_USER set');
    if (!start) return;
    if (start.environment.SMTP_AUTH !== 'true') {
      problem(`keycloak's SMTP_AUTH is ${start.environment.SMTP_AUTH} with SMTP_USER set`);
    }
    compareSmtpServer(problem, 'with SMTP_USER set', start, {
      host: filled.get('SMTP_HOST'),
      port: filled.get('SMTP_PORT'),
      from: filled.get('SMTP_FROM'),
      fromDisplayName: filled.get('SMTP_FROM_DISPLAY_NAME'),
      auth: 'true',
      user: filled.get('SMTP_USER'),
      password: secretValues.get('SMTP_PASSWORD'),
      starttls: filled.get('SMTP_STARTTLS'),
      ssl: filled.get('SMTP_SSL'),
    });
  },
);

rule(
  "with SMTP_USER empty, Keycloak does not log in (even with SMTP_AUTH=true in the .env), on compose's defaults",
  async (problem) => {
    // No user, the optional settings empty, and the .env asking for SMTP_AUTH outright: no
    // login, and compose's defaults (port 587 with STARTTLS, the display name).
    const anonymous = new Map(filled);
    for (const setting of [
      'SMTP_USER',
      'SMTP_PASSWORD',
      'SMTP_PORT',
      'SMTP_FROM_DISPLAY_NAME',
      'SMTP_STARTTLS',
      'SMTP_SSL',
    ]) {
      anonymous.set(setting, '');
    }
    anonymous.set('SMTP_AUTH', 'true');
    const start = await started(
      problem,
      keycloakStart(anonymous, 'smtp-anonymous'),
      'without SMTP_USER',
    );
    if (!start) return;
    if (start.environment.SMTP_AUTH !== 'false') {
      problem(
        `keycloak's SMTP_AUTH is ${start.environment.SMTP_AUTH} with SMTP_USER empty ` +
          '(and SMTP_AUTH=true in the .env)',
      );
    }
    compareSmtpServer(problem, 'with SMTP_USER empty', start, {
      host: filled.get('SMTP_HOST'),
      port: '587',
      from: filled.get('SMTP_FROM'),
      fromDisplayName: 'AI Debate',
      auth: 'false',
      user: '',
      password: '',
      starttls: 'true',
      ssl: 'false',
    });
  },
);

rule(
  "Keycloak's entrypoint refuses SMTP_PASSWORD without SMTP_USER, naming both",
  async (problem) => {
    const halfway = new Map(filled);
    halfway.set('SMTP_USER', '');
    const refused = await keycloakStart(halfway, 'smtp-password-only');
    if (!refused.error && refused.code === 0) {
      problem('keycloak starts with SMTP_PASSWORD set and SMTP_USER empty');
    } else if (
      !refused.error &&
      !(
        String(refused.stderr).includes('SMTP_PASSWORD') &&
        String(refused.stderr).includes('SMTP_USER')
      )
    ) {
      problem(
        `keycloak refuses SMTP_PASSWORD without SMTP_USER, but does not name both: ${refused.stderr}`,
      );
    }
  },
);
