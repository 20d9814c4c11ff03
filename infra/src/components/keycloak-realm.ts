import * as keycloak from '@pulumi/keycloak';
import * as pulumi from '@pulumi/pulumi';

export interface RealmArgs {
  /** Where Pulumi reaches Keycloak's admin API, and the admin's password. */
  readonly url: pulumi.Input<string>;
  readonly adminPassword: pulumi.Input<string>;
  /** The web app's origin (redirect URIs, web origins). */
  readonly webOrigin: string;
  readonly identityClientSecret: pulumi.Input<string>;
  readonly google?: { clientId: string; clientSecret: pulumi.Input<string> } | undefined;
  readonly github?: { clientId: string; clientSecret: pulumi.Input<string> } | undefined;
}

/**
 * The `debate` realm as deploy/keycloak/debate-realm.json describes it, managed through
 * Keycloak's admin API: brute-force detection, the password policy, the public web client
 * (PKCE), the identity service's confidential client with a service account allowed to
 * create users, and the Google and GitHub brokers where their OAuth apps are configured.
 */
export class DebateRealm extends pulumi.ComponentResource {
  readonly realm: keycloak.Realm;
  readonly webClient: keycloak.openid.Client;
  readonly serviceClient: keycloak.openid.Client;

  constructor(name: string, args: RealmArgs, options?: pulumi.ComponentResourceOptions) {
    super('debate:platform:DebateRealm', name, {}, options);
    const provider = new keycloak.Provider(
      `${name}-admin`,
      {
        url: args.url,
        realm: 'master',
        clientId: 'admin-cli',
        username: 'admin',
        password: args.adminPassword,
      },
      { parent: this },
    );
    const opts = { parent: this, provider };

    this.realm = new keycloak.Realm(
      name,
      {
        realm: 'debate',
        displayName: 'AI Debate',
        enabled: true,
        sslRequired: 'external',
        registrationEmailAsUsername: true,
        loginWithEmailAllowed: true,
        duplicateEmailsAllowed: false,
        accessTokenLifespan: '5m',
        passwordPolicy: 'length(8) and notEmail(undefined)',
        securityDefenses: {
          bruteForceDetection: {
            permanentLockout: false,
            failureResetTimeSeconds: 43_200,
            maxLoginFailures: 5,
            waitIncrementSeconds: 60,
            maxFailureWaitSeconds: 900,
            minimumQuickLoginWaitSeconds: 60,
            quickLoginCheckMilliSeconds: 1_000,
          },
        },
      },
      opts,
    );

    this.webClient = new keycloak.openid.Client(
      `${name}-web`,
      {
        realmId: this.realm.id,
        clientId: 'debate-web',
        name: 'AI Debate web app',
        accessType: 'PUBLIC',
        standardFlowEnabled: true,
        directAccessGrantsEnabled: true,
        pkceCodeChallengeMethod: 'S256',
        validRedirectUris: [`${args.webOrigin}/*`],
        webOrigins: [args.webOrigin],
      },
      opts,
    );

    this.serviceClient = new keycloak.openid.Client(
      `${name}-identity-service`,
      {
        realmId: this.realm.id,
        clientId: 'identity-service',
        name: 'The identity service',
        accessType: 'CONFIDENTIAL',
        clientSecret: args.identityClientSecret,
        standardFlowEnabled: false,
        directAccessGrantsEnabled: true,
        serviceAccountsEnabled: true,
      },
      opts,
    );
    const realmManagement = keycloak.openid.getClientOutput(
      { realmId: this.realm.id, clientId: 'realm-management' },
      { provider, parent: this },
    );
    new keycloak.openid.ClientServiceAccountRole(
      `${name}-identity-manage-users`,
      {
        realmId: this.realm.id,
        serviceAccountUserId: this.serviceClient.serviceAccountUserId,
        clientId: realmManagement.id,
        role: 'manage-users',
      },
      opts,
    );

    if (args.google) {
      new keycloak.oidc.GoogleIdentityProvider(
        `${name}-google`,
        {
          realm: this.realm.id,
          clientId: args.google.clientId,
          clientSecret: args.google.clientSecret,
          trustEmail: true,
          syncMode: 'IMPORT',
        },
        opts,
      );
    }
    if (args.github) {
      new keycloak.oidc.GithubIdentityProvider(
        `${name}-github`,
        {
          realm: this.realm.id,
          clientId: args.github.clientId,
          clientSecret: args.github.clientSecret,
          trustEmail: true,
          syncMode: 'IMPORT',
        },
        opts,
      );
    }
    this.registerOutputs({ realm: this.realm.realm });
  }
}
