import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The realm file production Keycloak imports; the embedded issuer reads its settings from it. */
export const realmFile = fileURLToPath(
  new URL('../../../deploy/keycloak/debate-realm.json', import.meta.url),
);

const AudienceMapper = z.object({
  protocolMapper: z.literal('oidc-audience-mapper'),
  config: z.object({
    'included.custom.audience': z.string().min(1),
    'access.token.claim': z.enum(['true', 'false']),
  }),
});

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
      standardFlowEnabled: z.boolean().optional(),
      directAccessGrantsEnabled: z.boolean().optional(),
      serviceAccountsEnabled: z.boolean().optional(),
      // Other mappers are Keycloak's to apply; the audience mappers are read here.
      protocolMappers: z.array(z.looseObject({ protocolMapper: z.string() })).default([]),
    }),
  ),
});

/** What the issuer needs of a client of the realm. */
export interface RealmClient {
  readonly clientId: string;
  /** Public: no secret (the web app); confidential: the secret only its holder has. */
  readonly publicClient: boolean;
  /** The password grant (Keycloak's direct access grants). */
  readonly directAccessGrants: boolean;
  /**
   * The authorization-code flow (Keycloak's standard flow, on unless the realm file turns it
   * off): the authorization endpoint serves only clients that have it.
   */
  readonly standardFlow: boolean;
  /** The audiences its access tokens name besides Keycloak's own (its audience mappers). */
  readonly audiences: readonly string[];
}

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
  /** The passwords the policy's passwordBlacklist refuses (lowercase), if it has one. */
  readonly passwordBlacklist: ReadonlySet<string> | undefined;
  /** The public client the browser signs in through (the authorization-code flow). */
  readonly webClientId: string;
  /** The confidential client with the service account that creates users. */
  readonly serviceClientId: string;
  readonly clients: ReadonlyMap<string, RealmClient>;
}

/**
 * The blacklist file `name` of Keycloak's passwordBlacklist policy, read as Keycloak reads it:
 * from its blacklists folder (here deploy/keycloak, where the file is kept), a password a line,
 * compared lowercase.
 */
function readBlacklist(realmPath: string, name: string): ReadonlySet<string> {
  if (name.includes('/')) throw new Error(`${realmPath}: ${name} must not contain slashes`);
  const file = join(dirname(realmPath), name);
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.replace(/\r$/, '').toLowerCase())
      .filter((line) => line.length > 0),
  );
}

export function loadRealmSettings(path = realmFile): RealmSettings {
  const realm = RealmFile.parse(JSON.parse(readFileSync(path, 'utf8')));
  const clients = new Map<string, RealmClient>(
    realm.clients.map((client) => [
      client.clientId,
      {
        clientId: client.clientId,
        publicClient: client.publicClient,
        directAccessGrants: client.directAccessGrantsEnabled === true,
        standardFlow: client.standardFlowEnabled !== false,
        audiences: client.protocolMappers.flatMap((mapper) => {
          const audience = AudienceMapper.safeParse(mapper);
          return audience.success && audience.data.config['access.token.claim'] === 'true'
            ? [audience.data.config['included.custom.audience']]
            : [];
        }),
      },
    ]),
  );
  const web = [...clients.values()].find((client) => client.publicClient && client.standardFlow);
  const service = realm.clients.find(
    (client) => !client.publicClient && client.serviceAccountsEnabled,
  );
  if (!web || !service) throw new Error(`${path}: needs a public web client and a service client`);
  const length = /length\((\d+)\)/.exec(realm.passwordPolicy);
  const blacklist = /passwordBlacklist\(([^)]+)\)/.exec(realm.passwordPolicy);
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
    passwordBlacklist: blacklist?.[1] ? readBlacklist(path, blacklist[1].trim()) : undefined,
    webClientId: web.clientId,
    serviceClientId: service.clientId,
    clients,
  };
}

/**
 * Keycloak's password policy messages, as its admin API returns them, in the order Keycloak
 * checks the policies: it keeps them in a Java HashMap, whose order for these three is
 * passwordBlacklist, length, notEmail (so 'short', a common password, is refused as common).
 */
export function passwordPolicyError(
  settings: RealmSettings,
  password: string,
  email: string,
): { error: string; error_description: string } | undefined {
  if (settings.passwordBlacklist?.has(password.toLowerCase())) {
    return {
      error: 'invalidPasswordBlacklistedMessage',
      error_description: 'Invalid password: password is not allowed.',
    };
  }
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
