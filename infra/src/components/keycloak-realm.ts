import * as keycloak from '@pulumi/keycloak';
import * as pulumi from '@pulumi/pulumi';
import type { OAuthApp, OAuthProvider, SmtpServer } from '../config.js';
import {
  realmFileAudiences,
  realmFileBroker,
  realmFilePasswordPolicy,
  realmFileUserProfile,
  realmFileVerifyEmail,
} from './user-profile.js';

/** How long the Keycloak provider waits for each call to Keycloak's admin API. */
const KEYCLOAK_ADMIN_TIMEOUT_SECONDS = 60;

export interface RealmArgs {
  /** Where Pulumi reaches Keycloak's admin API (its https address), and the admin's password. */
  readonly url: pulumi.Input<string>;
  readonly adminPassword: pulumi.Input<string>;
  /** The authority whose certificate Keycloak's address presents; undefined: the system's roots. */
  readonly trustedCa: pulumi.Input<string | undefined>;
  /** The web app's origin (redirect URIs, web origins). */
  readonly webOrigin: string;
  readonly identityClientSecret: pulumi.Input<string>;
  /** The OAuth apps configured: a broker each, none for a provider without one. */
  readonly oauthApps: Readonly<Partial<Record<OAuthProvider, OAuthApp>>>;
  /** The mail server the realm sends through (the link that verifies a new account's address). */
  readonly smtp: SmtpServer;
}

/**
 * The `debate` realm as deploy/keycloak/debate-realm.json describes it, managed through
 * Keycloak's admin API: brute-force detection, the password policy (with the common-passwords
 * list that KeycloakServer mounts), the public web client (PKCE, the authorization-code flow
 * only), the identity service's confidential client (the e-mail form's password grant, and a
 * service account allowed to create users), both clients' audience mappers (the gateway accepts
 * only their tokens), the user profile (read from that file), the SMTP server that sends the
 * address-verification mail, and the Google and GitHub brokers where their OAuth apps are
 * configured.
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
        // Signs in when it first calls Keycloak, not when configured: a preview before
        // Keycloak exists (the first one) must not need it.
        initialLogin: false,
        // Seconds per call to the admin API (the provider's default is 5). Creating the realm on
        // a Keycloak that has just started can take longer than that: the call then times out
        // although Keycloak goes on and creates the realm, and every later `pulumi up` meets
        // 409 Conflict creating it again, the realm being in Keycloak and not in the state.
        clientTimeout: KEYCLOAK_ADMIN_TIMEOUT_SECONDS,
        // Verifies Keycloak's certificate against the stack's authority, never skips it.
        rootCaCertificate: args.trustedCa,
        tlsInsecureSkipVerify: false,
      },
      // What the realm needs first (Keycloak serving its address): a component's own
      // dependsOn does not hold back its children, so each is given it.
      { parent: this, dependsOn: options?.dependsOn },
    );
    const opts = { parent: this, provider, dependsOn: options?.dependsOn };

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
        ssoSessionIdleTimeout: '30m',
        ssoSessionMaxLifespan: '10h',
        // A refresh token is good once: a replayed one ends its session (refreshTokenMaxReuse 0).
        revokeRefreshToken: true,
        refreshTokenMaxReuse: 0,
        passwordPolicy: realmFilePasswordPolicy(),
        // Keycloak does not ask at every sign-in: the identity service has new e-mail accounts
        // verify their address (EMAIL_VERIFICATION), with a link mailed through smtpServer.
        verifyEmail: realmFileVerifyEmail(),
        smtpServer: {
          host: args.smtp.host,
          port: String(args.smtp.port),
          from: args.smtp.from,
          fromDisplayName: args.smtp.fromDisplayName,
          starttls: args.smtp.starttls,
          ssl: args.smtp.ssl,
          ...(args.smtp.auth
            ? {
                auth: {
                  username: args.smtp.auth.username,
                  password: pulumi.secret(args.smtp.auth.password),
                },
              }
            : {}),
        },
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
    new keycloak.RealmUserProfile(
      `${name}-user-profile`,
      { realmId: this.realm.id, ...realmFileUserProfile() },
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
        // No password grant straight to the realm: the e-mail form goes through the gateway,
        // its limits, and the identity service's confidential client.
        directAccessGrantsEnabled: false,
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
    // The audience the gateway requires, on exactly the clients people sign in through.
    for (const [client, clientId] of [
      [this.webClient, 'debate-web'],
      [this.serviceClient, 'identity-service'],
    ] as const) {
      for (const audience of realmFileAudiences(clientId)) {
        new keycloak.openid.AudienceProtocolMapper(
          `${name}-${clientId}-audience-${audience}`,
          {
            realmId: this.realm.id,
            clientId: client.id,
            name: `${audience} audience`,
            includedCustomAudience: audience,
            addToAccessToken: true,
            addToIdToken: false,
          },
          opts,
        );
      }
    }
    const realmManagement = keycloak.openid.getClientOutput(
      { realmId: this.realm.id, clientId: 'realm-management' },
      { provider, parent: this },
    );
    // Users to create and read; the identity providers, so the sign-in page offers only those on.
    for (const role of ['manage-users', 'view-identity-providers']) {
      new keycloak.openid.ClientServiceAccountRole(
        `${name}-identity-${role}`,
        {
          realmId: this.realm.id,
          serviceAccountUserId: this.serviceClient.serviceAccountUserId,
          clientId: realmManagement.id,
          role,
        },
        opts,
      );
    }

    // Each broker as the realm file has it: PKCE, and the mappers that bring the picture in.
    const declareBroker = (
      alias: 'google' | 'github',
      app: OAuthApp,
      create: (brokerArgs: keycloak.oidc.GithubIdentityProviderArgs) => {
        alias: pulumi.Output<string>;
      },
    ) => {
      const shape = realmFileBroker(alias);
      const provider = create({
        realm: this.realm.id,
        clientId: app.clientId,
        clientSecret: app.clientSecret,
        trustEmail: true,
        syncMode: 'IMPORT',
        extraConfig: shape.extraConfig,
      });
      for (const mapper of shape.mappers) {
        new keycloak.CustomIdentityProviderMapping(
          `${name}-${alias}-${mapper.name}`,
          {
            realm: this.realm.id,
            name: mapper.name,
            identityProviderAlias: provider.alias,
            identityProviderMapper: mapper.identityProviderMapper,
            extraConfig: mapper.extraConfig,
          },
          opts,
        );
      }
    };
    const { google, github } = args.oauthApps;
    if (google) {
      declareBroker('google', google, (brokerArgs) => {
        return new keycloak.oidc.GoogleIdentityProvider(`${name}-google`, brokerArgs, opts);
      });
    }
    if (github) {
      declareBroker('github', github, (brokerArgs) => {
        return new keycloak.oidc.GithubIdentityProvider(`${name}-github`, brokerArgs, opts);
      });
    }
    this.registerOutputs({ realm: this.realm.realm });
  }
}
