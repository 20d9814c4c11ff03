import { beforeEach, describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { readSettings } from './config.js';

// A stack's configuration as `pulumi config set` leaves it (the CLI sets the same runtime
// settings; mocks stand in for the engine).
const REQUIRED: Record<string, string> = {
  'debate:imageRegistry': 'registry.example.org/debate',
  'debate:imageTag': '1.2.3',
  'debate:host': 'debate.example.org',
  'debate:keycloakHost': 'sso.example.org',
  'debate:mongoRootPassword': 'root-password-000000',
  'debate:mongoServicePasswords': JSON.stringify({
    identity: 'a',
    usage: 'b',
    generation: 'c',
    debates: 'd',
    community: 'e',
  }),
  'debate:keycloakAdminPassword': 'admin-password-000000',
  'debate:keycloakDbPassword': 'db-password-000000',
  'debate:identityClientSecret': 'client-secret-000000',
};
/** Replaces the whole stack configuration with the required settings and `values`. */
function configure(values: Record<string, string>): void {
  pulumi.runtime.setAllConfig({ ...REQUIRED, ...values });
}

describe("a stack's settings", () => {
  beforeEach(async () => {
    await pulumi.runtime.setMocks({
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: (args) => args.inputs,
    });
  });

  it("leaves the usage rules to the service's defaults unless the stack sets them", () => {
    configure({});
    expect(readSettings().usageEnv).toEqual({});
    configure({
      'debate:usageTestAccountEmail': 'tester@example.org',
      'debate:usageStartsPerMinute': '12',
      'debate:usageAbandonedRunMs': '7200000',
    });
    expect(readSettings().usageEnv).toEqual({
      USAGE_TEST_ACCOUNT_EMAIL: 'tester@example.org',
      USAGE_STARTS_PER_MINUTE: '12',
      USAGE_ABANDONED_RUN_MS: '7200000',
    });
  });

  it('refuses usage rules the usage service would refuse at start, naming the setting', () => {
    for (const [key, value] of [
      ['debate:usageStartsPerMinute', '0'],
      ['debate:usageStartsPerMinute', '1001'],
      ['debate:usageStartsPerMinute', 'many'],
      ['debate:usageStartsPerMinute', '2.5'],
      ['debate:usageAbandonedRunMs', '500'],
      ['debate:usageTestAccountEmail', 'not an address'],
      ['debate:usageTestAccountEmail', 'a@b'],
    ] as const) {
      configure({ [key]: value });
      expect(() => readSettings()).toThrow(`${key} (${JSON.stringify(value)})`);
    }
  });

  it('brokers sign-in to Google and GitHub only where a client id is configured', () => {
    configure({});
    expect(readSettings().oauthApps).toEqual({});
    configure({ 'debate:googleClientId': '  ', 'debate:githubClientId': '' });
    expect(readSettings().oauthApps).toEqual({});
    configure({
      'debate:googleClientId': 'google-app',
      'debate:googleClientSecret': 'google-secret',
    });
    const { oauthApps } = readSettings();
    expect(Object.keys(oauthApps)).toEqual(['google']);
    expect(oauthApps.google?.clientId).toBe('google-app');
  });

  it('refuses a client id without its secret, and a secret without its client id', () => {
    configure({ 'debate:githubClientId': 'github-app' });
    expect(() => readSettings()).toThrow(
      'debate:githubClientId is set but debate:githubClientSecret is not',
    );
    configure({ 'debate:googleClientSecret': 'google-secret' });
    expect(() => readSettings()).toThrow(
      'debate:googleClientSecret is set but debate:googleClientId is not',
    );
  });
});
