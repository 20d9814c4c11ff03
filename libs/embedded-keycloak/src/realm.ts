import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The realm file production Keycloak imports; the embedded issuer reads its settings from it. */
export const realmFile = fileURLToPath(
  new URL('../../../deploy/keycloak/debate-realm.json', import.meta.url),
);

const RealmFile = z.object({
  realm: z.string(),
  displayName: z.string().optional(),
  accessTokenLifespan: z.number().int().positive(),
  ssoSessionIdleTimeout: z.number().int().positive(),
  ssoSessionMaxLifespan: z.number().int().positive(),
  bruteForceProtected: z.boolean(),
  failureFactor: z.number().int().positive(),
  waitIncrementSeconds: z.number().int().positive(),
  maxFailureWaitSeconds: z.number().int().positive(),
  quickLoginCheckMilliSeconds: z.number().int().nonnegative(),
  minimumQuickLoginWaitSeconds: z.number().int().nonnegative(),
  passwordPolicy: z.string(),
  clients: z.array(
    z.object({
      clientId: z.string(),
      publicClient: z.boolean(),
      directAccessGrantsEnabled: z.boolean().optional(),
      serviceAccountsEnabled: z.boolean().optional(),
    }),
  ),
});

/** What the issuer needs of the realm. */
export interface RealmSettings {
  readonly name: string;
  /** How pages and e-mails name the realm: its display name, else its name capitalised. */
  readonly displayName: string;
  readonly accessTokenSeconds: number;
  readonly sessionIdleSeconds: number;
  readonly sessionMaxSeconds: number;
  readonly bruteForce: {
    readonly enabled: boolean;
    readonly failureFactor: number;
    readonly waitIncrementSeconds: number;
    readonly maxWaitSeconds: number;
    /** Two failures closer than this lock the account for `minimumQuickLoginWaitSeconds`. */
    readonly quickLoginCheckMs: number;
    readonly minimumQuickLoginWaitSeconds: number;
  };
  readonly passwordMinLength: number;
  readonly passwordNotEmail: boolean;
  readonly webClientId: string;
  readonly serviceClientId: string;
}

export function loadRealmSettings(path = realmFile): RealmSettings {
  const realm = RealmFile.parse(JSON.parse(readFileSync(path, 'utf8')));
  const web = realm.clients.find(
    (client) => client.publicClient && client.directAccessGrantsEnabled,
  );
  const service = realm.clients.find(
    (client) => !client.publicClient && client.serviceAccountsEnabled,
  );
  if (!web || !service) throw new Error(`${path}: needs a public web client and a service client`);
  const length = /length\((\d+)\)/.exec(realm.passwordPolicy);
  return {
    name: realm.realm,
    displayName: realm.displayName?.trim()
      ? realm.displayName
      : realm.realm.charAt(0).toUpperCase() + realm.realm.slice(1),
    accessTokenSeconds: realm.accessTokenLifespan,
    sessionIdleSeconds: realm.ssoSessionIdleTimeout,
    sessionMaxSeconds: realm.ssoSessionMaxLifespan,
    bruteForce: {
      enabled: realm.bruteForceProtected,
      failureFactor: realm.failureFactor,
      waitIncrementSeconds: realm.waitIncrementSeconds,
      maxWaitSeconds: realm.maxFailureWaitSeconds,
      quickLoginCheckMs: realm.quickLoginCheckMilliSeconds,
      minimumQuickLoginWaitSeconds: realm.minimumQuickLoginWaitSeconds,
    },
    passwordMinLength: length ? Number(length[1]) : 0,
    passwordNotEmail: realm.passwordPolicy.includes('notEmail'),
    webClientId: web.clientId,
    serviceClientId: service.clientId,
  };
}

/** Keycloak's password policy messages, as its admin API returns them. */
export function passwordPolicyError(
  settings: RealmSettings,
  password: string,
  email: string,
): { error: string; error_description: string } | undefined {
  if (password.length < settings.passwordMinLength) {
    return {
      error: 'invalidPasswordMinLengthMessage',
      error_description: `Invalid password: minimum length ${settings.passwordMinLength}.`,
    };
  }
  if (settings.passwordNotEmail && password.toLowerCase() === email.toLowerCase()) {
    return {
      error: 'invalidPasswordNotEmailMessage',
      error_description: 'Invalid password: must not be equal to the email.',
    };
  }
  return undefined;
}
