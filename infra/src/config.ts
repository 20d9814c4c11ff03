import * as pulumi from '@pulumi/pulumi';

/** The five services, each with its own database and user. */
export const serviceNames = ['identity', 'usage', 'generation', 'debates', 'community'] as const;
export type ServiceName = (typeof serviceNames)[number];

/** A stack's settings (Pulumi.<stack>.yaml); the secrets are Pulumi config secrets. */
export interface StackSettings {
  readonly namespace: string;
  readonly imageRegistry: string;
  readonly imageTag: string;
  /** Where browsers reach the gateway, and Keycloak. */
  readonly host: string;
  readonly keycloakHost: string;
  /** The cert-manager ClusterIssuer of the Ingress certificates. */
  readonly tlsClusterIssuer: string;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /** MongoDB Atlas instead of MongoDB in the cluster, when both are set. */
  readonly atlasProjectId: string | undefined;
  readonly atlasClusterName: string | undefined;
  /** Where every deployable sends its traces (OTLP/HTTP, e.g. a collector's :4318); none if unset. */
  readonly otlpEndpoint: string | undefined;
  /**
   * The most MongoDB connections one service pod opens (the driver's default is 100 per
   * process, kept once opened: at maxReplicas pods of five services, thousands on one primary).
   */
  readonly mongoMaxPoolSize: number;
  /** The usage service's rules, where the stack sets them (else the service's defaults). */
  readonly usage: {
    /** The account with a daily 100 (USAGE_TEST_ACCOUNT_EMAIL). */
    readonly testAccountEmail?: string | undefined;
    /** How many debates one user may start in any minute (USAGE_STARTS_PER_MINUTE, 5). */
    readonly startsPerMinute?: number | undefined;
    /** How long a run may stay open before its debate is given back (USAGE_ABANDONED_RUN_MS). */
    readonly abandonedRunMs?: number | undefined;
  };
  readonly secrets: {
    readonly mongoRootPassword: pulumi.Output<string>;
    readonly mongoServicePasswords: pulumi.Output<Record<ServiceName, string>>;
    readonly keycloakAdminPassword: pulumi.Output<string>;
    readonly keycloakDbPassword: pulumi.Output<string>;
    readonly identityClientSecret: pulumi.Output<string>;
    readonly openaiApiKey: pulumi.Output<string> | undefined;
    readonly googleClientId: string | undefined;
    readonly googleClientSecret: pulumi.Output<string> | undefined;
    readonly githubClientId: string | undefined;
    readonly githubClientSecret: pulumi.Output<string> | undefined;
  };
}

export function readSettings(config = new pulumi.Config('debate')): StackSettings {
  const passwords =
    config.requireSecretObject<Record<ServiceName, string>>('mongoServicePasswords');
  return {
    namespace: config.get('namespace') ?? 'debate',
    imageRegistry: config.require('imageRegistry'),
    imageTag: config.require('imageTag'),
    host: config.require('host'),
    keycloakHost: config.require('keycloakHost'),
    tlsClusterIssuer: config.get('tlsClusterIssuer') ?? 'letsencrypt',
    minReplicas: config.getNumber('minReplicas') ?? 2,
    maxReplicas: config.getNumber('maxReplicas') ?? 10,
    atlasProjectId: config.get('atlasProjectId'),
    atlasClusterName: config.get('atlasClusterName'),
    otlpEndpoint: config.get('otlpEndpoint'),
    mongoMaxPoolSize: config.getNumber('mongoMaxPoolSize', { min: 1 }) ?? 20,
    // The usage service's own bounds for the numbers, an address's shape for the e-mail (the
    // service checks it fully): a bad value fails the preview rather than every usage pod.
    usage: {
      testAccountEmail: config.get('usageTestAccountEmail', { pattern: /^[^@\s]+@[^@\s]+$/ }),
      startsPerMinute: config.getNumber('usageStartsPerMinute', { min: 1, max: 1000 }),
      abandonedRunMs: config.getNumber('usageAbandonedRunMs', { min: 1000 }),
    },
    secrets: {
      mongoRootPassword: config.requireSecret('mongoRootPassword'),
      mongoServicePasswords: passwords.apply((all) => {
        const missing = serviceNames.filter((name) => !all[name]);
        if (missing.length > 0) {
          throw new Error(`mongoServicePasswords has no password for ${missing.join(', ')}`);
        }
        return all;
      }),
      keycloakAdminPassword: config.requireSecret('keycloakAdminPassword'),
      keycloakDbPassword: config.requireSecret('keycloakDbPassword'),
      identityClientSecret: config.requireSecret('identityClientSecret'),
      openaiApiKey: config.getSecret('openaiApiKey'),
      googleClientId: config.get('googleClientId'),
      googleClientSecret: config.getSecret('googleClientSecret'),
      githubClientId: config.get('githubClientId'),
      githubClientSecret: config.getSecret('githubClientSecret'),
    },
  };
}
