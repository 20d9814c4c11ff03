import type * as keycloak from '@pulumi/keycloak';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The realm file docker-compose and the tests import: the one definition of the user profile,
 * which the Pulumi realm declares too. (From src/components and dist/components alike.)
 */
const REALM_FILE = new URL('../../../deploy/keycloak/debate-realm.json', import.meta.url);
/** Where a realm export keeps its declarative user profile (a JSON string). */
const PROFILE_PROVIDER = 'org.keycloak.userprofile.UserProfileProvider';

type UserProfile = Omit<keycloak.RealmUserProfileArgs, 'realmId'>;
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
/** A validator's or annotation's value as the provider takes it: a string, or JSON. */
const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const texts = (values: Json) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, text(value)]));

/** The keys of Keycloak's user profile (UPConfig) that the provider's resource carries. */
const ATTRIBUTE_KEYS = [
  'name',
  'displayName',
  'defaultValue',
  'validations',
  'annotations',
  'required',
  'permissions',
  'selector',
  'group',
  'multivalued',
];
const GROUP_KEYS = ['name', 'displayHeader', 'displayDescription', 'annotations'];

function refuseOthers(what: string, value: Json, known: readonly string[]): void {
  const others = Object.keys(value).filter((key) => !known.includes(key));
  if (others.length > 0) {
    throw new Error(`${what} has ${others.join(', ')}, which the Pulumi realm cannot declare`);
  }
}

/**
 * Keycloak's user profile configuration (UPConfig, as a realm export stores it) as the
 * provider's RealmUserProfile takes it. A key it cannot carry is refused, not dropped.
 */
export function userProfileOf(config: unknown): UserProfile {
  if (!isObject(config) || !Array.isArray(config['attributes'])) {
    throw new Error('the user profile has no attributes');
  }
  refuseOthers('the user profile', config, ['attributes', 'groups', 'unmanagedAttributePolicy']);
  const attributes = config['attributes'].map((attribute: unknown) => {
    if (!isObject(attribute) || typeof attribute['name'] !== 'string') {
      throw new Error(`a user profile attribute has no name: ${JSON.stringify(attribute)}`);
    }
    const { name } = attribute;
    refuseOthers(`the user profile attribute ${name}`, attribute, ATTRIBUTE_KEYS);
    const validations = isObject(attribute['validations']) ? attribute['validations'] : {};
    const required = isObject(attribute['required']) ? attribute['required'] : {};
    const permissions = isObject(attribute['permissions']) ? attribute['permissions'] : {};
    const selector = isObject(attribute['selector']) ? attribute['selector'] : {};
    return {
      name,
      ...(typeof attribute['displayName'] === 'string'
        ? { displayName: attribute['displayName'] }
        : {}),
      ...(typeof attribute['defaultValue'] === 'string'
        ? { defaultValue: attribute['defaultValue'] }
        : {}),
      ...(typeof attribute['group'] === 'string' ? { group: attribute['group'] } : {}),
      validators: Object.entries(validations).map(([validator, options]) =>
        isObject(options) && Object.keys(options).length > 0
          ? { name: validator, config: texts(options) }
          : { name: validator },
      ),
      ...(strings(required['roles']) ? { requiredForRoles: strings(required['roles']) } : {}),
      ...(strings(required['scopes']) ? { requiredForScopes: strings(required['scopes']) } : {}),
      ...(strings(selector['scopes']) ? { enabledWhenScopes: strings(selector['scopes']) } : {}),
      permissions: {
        views: strings(permissions['view']) ?? [],
        edits: strings(permissions['edit']) ?? [],
      },
      ...(isObject(attribute['annotations'])
        ? { annotations: texts(attribute['annotations']) }
        : {}),
      multiValued: attribute['multivalued'] === true,
    };
  });
  const groups = (Array.isArray(config['groups']) ? config['groups'] : []).map((group: unknown) => {
    if (!isObject(group) || typeof group['name'] !== 'string') {
      throw new Error(`a user profile group has no name: ${JSON.stringify(group)}`);
    }
    refuseOthers(`the user profile group ${group['name']}`, group, GROUP_KEYS);
    return {
      name: group['name'],
      ...(typeof group['displayHeader'] === 'string'
        ? { displayHeader: group['displayHeader'] }
        : {}),
      ...(typeof group['displayDescription'] === 'string'
        ? { displayDescription: group['displayDescription'] }
        : {}),
      ...(isObject(group['annotations']) ? { annotations: texts(group['annotations']) } : {}),
    };
  });
  const policy = config['unmanagedAttributePolicy'];
  return {
    attributes,
    groups,
    ...(typeof policy === 'string' ? { unmanagedAttributePolicy: policy } : {}),
  };
}

/**
 * The user profile deploy/keycloak/debate-realm.json declares (in its components, as Keycloak
 * exports it): Keycloak 24+ requires first and last names by default, so a user created with
 * a username, an e-mail address and a password only was refused the password grant ('Account
 * is not fully set up'); the file's profile makes them optional.
 */
export function realmFileUserProfile(): UserProfile {
  const realm: unknown = JSON.parse(readFileSync(REALM_FILE, 'utf8'));
  const providers = isObject(realm) && isObject(realm['components']) ? realm['components'] : {};
  const [provider]: unknown[] = Array.isArray(providers[PROFILE_PROVIDER])
    ? providers[PROFILE_PROVIDER]
    : [];
  const config = isObject(provider) && isObject(provider['config']) ? provider['config'] : {};
  const [profile] = strings(config['kc.user.profile.config']) ?? [];
  if (profile === undefined) throw new Error(`${REALM_FILE.pathname} declares no user profile`);
  return userProfileOf(JSON.parse(profile));
}

const RealmFileSettings = z.object({ verifyEmail: z.boolean() });
const RealmFilePolicy = z.object({ passwordPolicy: z.string().min(1) });
const RealmFileClients = z.object({
  clients: z.array(
    z.object({
      clientId: z.string(),
      protocolMappers: z
        .array(
          z.looseObject({ protocolMapper: z.string(), config: z.record(z.string(), z.string()) }),
        )
        .default([]),
    }),
  ),
});

/**
 * Whether the realm file has Keycloak ask every user to verify their address at sign-in
 * (`verifyEmail`): it does not, the identity service asks new e-mail accounts itself (its
 * EMAIL_VERIFICATION), through the realm's mail. A file without the setting fails the preview.
 */
export function realmFileVerifyEmail(): boolean {
  const parsed = RealmFileSettings.safeParse(JSON.parse(readFileSync(REALM_FILE, 'utf8')));
  if (!parsed.success) {
    throw new Error(`${REALM_FILE.pathname} has no verifyEmail (true or false)`);
  }
  return parsed.data.verifyEmail;
}

const RealmFileBrokers = z.object({
  identityProviders: z.array(
    z.object({ alias: z.string(), config: z.record(z.string(), z.string()) }),
  ),
  identityProviderMappers: z
    .array(
      z.object({
        name: z.string(),
        identityProviderAlias: z.string(),
        identityProviderMapper: z.string(),
        config: z.record(z.string(), z.string()),
      }),
    )
    .default([]),
});

/** What the realm file says of a broker beyond its credentials: PKCE, and its mappers. */
export interface BrokerShape {
  /** The provider settings Pulumi's resource has no argument of its own for (PKCE). */
  readonly extraConfig: Record<string, string>;
  readonly mappers: ReadonlyArray<{
    readonly name: string;
    readonly identityProviderMapper: string;
    readonly extraConfig: Record<string, string>;
  }>;
}

/** The realm file's settings for the broker `alias` that the Pulumi realm declares the same way. */
export function realmFileBroker(alias: string): BrokerShape {
  const realm = RealmFileBrokers.parse(JSON.parse(readFileSync(REALM_FILE, 'utf8')));
  const provider = realm.identityProviders.find((entry) => entry.alias === alias);
  if (!provider) throw new Error(`${REALM_FILE.pathname} has no ${alias} provider`);
  const { pkceEnabled, pkceMethod } = provider.config;
  return {
    extraConfig: {
      ...(pkceEnabled ? { pkceEnabled } : {}),
      ...(pkceMethod ? { pkceMethod } : {}),
    },
    mappers: realm.identityProviderMappers
      .filter((mapper) => mapper.identityProviderAlias === alias)
      .map(({ name, identityProviderMapper, config }) => ({
        name,
        identityProviderMapper,
        extraConfig: config,
      })),
  };
}

/** The realm file's password policy, which the Pulumi realm declares as it is. */
export function realmFilePasswordPolicy(): string {
  return RealmFilePolicy.parse(JSON.parse(readFileSync(REALM_FILE, 'utf8'))).passwordPolicy;
}

/**
 * The blacklist files the policy's passwordBlacklist names, with their content, from beside the
 * realm file (deploy/keycloak): what Keycloak must find in its data/password-blacklists folder.
 */
export function realmFilePasswordBlacklists(): Record<string, string> {
  const names = [...realmFilePasswordPolicy().matchAll(/passwordBlacklist\(([^)]+)\)/g)].map(
    (match) => (match[1] ?? '').trim(),
  );
  return Object.fromEntries(
    names.map((name) => [name, readFileSync(new URL(name, REALM_FILE), 'utf8')]),
  );
}

/**
 * The custom audiences the realm file's audience mappers (`oidc-audience-mapper`) add to the
 * access tokens of `clientId`: the gateway accepts only tokens naming its audience.
 */
export function realmFileAudiences(clientId: string): string[] {
  const realm = RealmFileClients.parse(JSON.parse(readFileSync(REALM_FILE, 'utf8')));
  const client = realm.clients.find((entry) => entry.clientId === clientId);
  if (!client) throw new Error(`${REALM_FILE.pathname} has no client ${clientId}`);
  return client.protocolMappers.flatMap((mapper) => {
    const audience = mapper.config['included.custom.audience'];
    return mapper.protocolMapper === 'oidc-audience-mapper' &&
      mapper.config['access.token.claim'] === 'true' &&
      audience
      ? [audience]
      : [];
  });
}
