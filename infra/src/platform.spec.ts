import { beforeAll, describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import type { StackSettings } from './config.js';

interface Created {
  readonly type: string;
  readonly name: string;
  // What the program passed: plain JSON once Pulumi has resolved it.
  readonly inputs: Record<string, unknown>;
}

const created: Created[] = [];

/** How Pulumi marks a secret value in the inputs a mock receives. */
const SECRET_SIG = '4dabf18193072939515e22adb298388d';

function isSecret(value: unknown): value is { value: unknown } {
  return Boolean(value && typeof value === 'object' && SECRET_SIG in value);
}

/** The inputs with every secret replaced by its value (to read them). */
function plain(value: unknown): unknown {
  if (isSecret(value)) return plain(value.value);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  }
  return value;
}

/** The recorded inputs as they were sent, secrets still marked. */
const raw = new Map<string, unknown>();

// No Pulumi CLI and no cluster: every resource is recorded instead of created.
pulumi.runtime.setMocks(
  {
    newResource(args) {
      raw.set(`${args.type}::${args.name}`, args.inputs);
      created.push({
        type: args.type,
        name: args.name,
        inputs: plain(args.inputs) as Record<string, unknown>,
      });
      const metadata = (args.inputs['metadata'] ?? {}) as Record<string, unknown>;
      return {
        id: `${args.name}-id`,
        state: {
          ...args.inputs,
          metadata: { ...metadata, name: metadata['name'] ?? args.name },
          ...(args.type === 'kubernetes:helm.sh/v3:Release' ? { status: { name: args.name } } : {}),
          ...(args.type === 'keycloak:openid/client:Client'
            ? { serviceAccountUserId: `${args.name}-sa` }
            : {}),
        },
      };
    },
    call(args) {
      if (args.token.startsWith('mongodbatlas:')) {
        return { connectionStrings: { standardSrv: 'mongodb+srv://cluster0.example.mongodb.net' } };
      }
      return { ...args.inputs, id: 'realm-management-id' };
    },
  },
  'debate',
  'test',
  false,
);

const SECRETS = {
  mongoRoot: 'root-pw-000000000000',
  identityClient: 'identity-secret-0000000000',
  keycloakAdmin: 'kc-admin-pw-0000000000',
  keycloakDb: 'kc-db-pw-0000000000',
  openai: 'sk-test-000000000000000',
};
const servicePasswords = {
  identity: 'pw-identity-000000',
  usage: 'pw-usage-000000',
  generation: 'pw-generation-000000',
  debates: 'pw-debates-000000',
  community: 'pw-community-000000',
};

function settings(overrides: Partial<StackSettings> = {}): StackSettings {
  return {
    namespace: 'debate-test',
    imageRegistry: 'registry.example.org/debate',
    imageTag: '1.2.3',
    host: 'debate.example.org',
    keycloakHost: 'sso.example.org',
    tlsClusterIssuer: 'letsencrypt',
    minReplicas: 2,
    maxReplicas: 6,
    atlasProjectId: undefined,
    atlasClusterName: undefined,
    otlpEndpoint: 'http://otel-collector.observability.svc.cluster.local:4318',
    mongoMaxPoolSize: 15,
    usageEnv: { USAGE_TEST_ACCOUNT_EMAIL: 'tester@example.org', USAGE_STARTS_PER_MINUTE: '12' },
    secrets: {
      mongoRootPassword: pulumi.secret(SECRETS.mongoRoot),
      mongoServicePasswords: pulumi.secret(servicePasswords),
      keycloakAdminPassword: pulumi.secret(SECRETS.keycloakAdmin),
      keycloakDbPassword: pulumi.secret(SECRETS.keycloakDb),
      identityClientSecret: pulumi.secret(SECRETS.identityClient),
      openaiApiKey: pulumi.secret(SECRETS.openai),
      googleClientId: 'google-client',
      googleClientSecret: pulumi.secret('google-secret-000000'),
      githubClientId: undefined,
      githubClientSecret: undefined,
    },
    ...overrides,
  };
}

const settled = <T>(output: pulumi.Output<T>) =>
  new Promise<T>((resolve) => {
    output.apply((value) => {
      resolve(value);
      return value;
    });
  });

/** Waits until Pulumi has registered everything the program declared. */
async function run(stack: StackSettings) {
  const { createPlatform } = await import('./platform.js');
  const platform = createPlatform(stack);
  await settled(platform.ingress.urn);
  await Promise.all(
    [...Object.values(platform.services), platform.gateway].map((deployable) =>
      settled(pulumi.all([deployable.autoscaler.urn, deployable.secret.urn, deployable.host])),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  return platform;
}

const ofType = (type: string) => created.filter((resource) => resource.type === type);
type Container = {
  env: Array<{ name: string; value?: unknown }>;
  envFrom: Array<{ secretRef: { name: string } }>;
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  ports: Array<{ name: string; containerPort: number }>;
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: Record<string, unknown>;
  image: string;
};
const containerOf = (deployment: Created) =>
  (
    deployment.inputs as {
      spec: {
        template: { spec: { containers: Container[]; securityContext: Record<string, unknown> } };
      };
    }
  ).spec.template.spec;

const DEPLOYABLES = ['identity', 'usage', 'generation', 'debates', 'community', 'gateway'];

describe('the platform on Kubernetes (Pulumi, mocked)', () => {
  beforeAll(async () => {
    await run(settings());
  });

  it('has one Deployment, Service and HorizontalPodAutoscaler per deployable', () => {
    const names = (type: string) =>
      ofType(type)
        .map((resource) => resource.name)
        .sort();
    expect(names('kubernetes:apps/v1:Deployment')).toEqual([...DEPLOYABLES].sort());
    expect(names('kubernetes:core/v1:Service')).toEqual([...DEPLOYABLES].sort());
    const autoscalers = ofType('kubernetes:autoscaling/v2:HorizontalPodAutoscaler');
    expect(autoscalers.map((resource) => resource.name).sort()).toEqual([...DEPLOYABLES].sort());
    for (const autoscaler of autoscalers) {
      expect(autoscaler.inputs).toMatchObject({
        spec: {
          minReplicas: 2,
          maxReplicas: 6,
          scaleTargetRef: { kind: 'Deployment', name: autoscaler.name },
        },
      });
    }
  });

  it('probes every pod on its operations port, limits it, and runs it as non-root, read-only', () => {
    for (const deployment of ofType('kubernetes:apps/v1:Deployment')) {
      const pod = containerOf(deployment);
      const [container] = pod.containers;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container?.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'ops' });
      expect(container?.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'ops' });
      expect(container?.ports).toContainEqual({ name: 'ops', containerPort: 9464 });
      expect(container?.resources.requests).toEqual({ cpu: '100m', memory: '192Mi' });
      expect(container?.resources.limits).toEqual({ cpu: '1', memory: '512Mi' });
      expect(container?.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(container?.image).toBe(`registry.example.org/debate/${deployment.name}:1.2.3`);
    }
  });

  it('has the gateway believe the Ingress in front of it, and only it', () => {
    for (const deployment of ofType('kubernetes:apps/v1:Deployment')) {
      const trust = containerOf(deployment).containers[0]?.env.find(
        (variable) => variable.name === 'TRUST_PROXY',
      );
      expect(trust?.value).toBe(deployment.name === 'gateway' ? 'loopback,uniquelocal' : undefined);
    }
  });

  it('gives a stopping generation pod time to finish its debates, the others the default', () => {
    for (const deployment of ofType('kubernetes:apps/v1:Deployment')) {
      const pod = containerOf(deployment) as ReturnType<typeof containerOf> & {
        terminationGracePeriodSeconds: number;
      };
      const drain = pod.containers[0]?.env.find((variable) => variable.name === 'DRAIN_TIMEOUT_MS');
      if (deployment.name === 'generation') {
        expect(drain?.value).toBe('120000');
        // The requests it took, then its runs: each may take the drain time, and a margin.
        expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual((2 * 120_000) / 1000);
      } else {
        expect(drain).toBeUndefined();
        expect(pod.terminationGracePeriodSeconds).toBe(30);
      }
    }
  });

  it('keeps every secret out of the Deployments: they read them from their Secret', () => {
    const everySecret = [...Object.values(SECRETS), ...Object.values(servicePasswords)];
    for (const deployment of ofType('kubernetes:apps/v1:Deployment')) {
      const text = JSON.stringify(deployment.inputs);
      for (const secret of everySecret)
        expect([deployment.name, text.includes(secret)]).toEqual([deployment.name, false]);
      const [container] = containerOf(deployment).containers;
      expect(container?.envFrom).toEqual([{ secretRef: { name: `${deployment.name}-env` } }]);
    }
    const secretOf = (name: string) =>
      ofType('kubernetes:core/v1:Secret').find((secret) => secret.name === `${name}-env`)?.inputs[
        'stringData'
      ] as Record<string, string>;
    expect(secretOf('identity')['KEYCLOAK_CLIENT_SECRET']).toBe(SECRETS.identityClient);
    expect(secretOf('generation')['OPENAI_API_KEY']).toBe(SECRETS.openai);
    // …and Pulumi keeps them encrypted in its state: they are marked secret.
    for (const name of ['identity', 'generation', 'usage']) {
      const inputs = raw.get(`kubernetes:core/v1:Secret::${name}-env`) as Record<string, unknown>;
      expect([name, isSecret(inputs['stringData'])]).toEqual([name, true]);
    }
  });

  it('has every deployable export its traces to the configured OTLP endpoint', () => {
    for (const deployment of ofType('kubernetes:apps/v1:Deployment')) {
      const env = containerOf(deployment).containers[0]?.env ?? [];
      expect([deployment.name, env]).toEqual([
        deployment.name,
        expect.arrayContaining([
          {
            name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
            value: 'http://otel-collector.observability.svc.cluster.local:4318',
          },
        ]),
      ]);
    }
  });

  it('gives every service its NATS URL and a MongoDB URL of its own database and pool size', () => {
    for (const service of DEPLOYABLES.filter((name) => name !== 'gateway')) {
      const deployment = ofType('kubernetes:apps/v1:Deployment').find((d) => d.name === service);
      const env = containerOf(deployment as Created).containers[0]?.env ?? [];
      expect(env).toContainEqual({
        name: 'NATS_URL',
        value: 'nats://nats.debate-test.svc.cluster.local:4222',
      });
      const secret = ofType('kubernetes:core/v1:Secret').find((s) => s.name === `${service}-env`);
      const mongoUrl = (secret?.inputs['stringData'] as Record<string, string>)['MONGO_URL'];
      expect(mongoUrl).toBe(
        `mongodb://${service}:${servicePasswords[service as keyof typeof servicePasswords]}` +
          `@mongo-headless.debate-test.svc.cluster.local:27017/?authSource=${service}&replicaSet=rs0` +
          '&maxPoolSize=15&maxIdleTimeMS=60000',
      );
    }
  });

  it("gives the usage service the stack's usage rules, and leaves the others to its defaults", () => {
    for (const deployment of ofType('kubernetes:apps/v1:Deployment')) {
      const usageVariables = (containerOf(deployment).containers[0]?.env ?? []).filter((variable) =>
        variable.name.startsWith('USAGE_'),
      );
      expect([deployment.name, usageVariables]).toEqual([
        deployment.name,
        deployment.name === 'usage'
          ? [
              { name: 'USAGE_TEST_ACCOUNT_EMAIL', value: 'tester@example.org' },
              { name: 'USAGE_STARTS_PER_MINUTE', value: '12' },
            ]
          : [],
      ]);
    }
  });

  it('runs NATS with JetStream, MongoDB with a user per service, Keycloak with the realm', () => {
    const releases = ofType('kubernetes:helm.sh/v3:Release');
    const nats = releases.find((release) => release.name === 'nats');
    expect(nats?.inputs).toMatchObject({ values: { config: { jetstream: { enabled: true } } } });
    const mongo = releases.find((release) => release.name === 'mongo');
    expect(mongo?.inputs).toMatchObject({
      values: { auth: { usernames: ['identity', 'usage', 'generation', 'debates', 'community'] } },
    });
    const realm = ofType('keycloak:index/realm:Realm')[0];
    expect(realm?.inputs).toMatchObject({
      realm: 'debate',
      passwordPolicy: 'length(8) and notEmail(undefined)',
      securityDefenses: { bruteForceDetection: { maxLoginFailures: 5 } },
    });
    const clients = ofType('keycloak:openid/client:Client');
    expect(clients.map((client) => client.inputs['clientId']).sort()).toEqual([
      'debate-web',
      'identity-service',
    ]);
    expect(ofType('keycloak:oidc/googleIdentityProvider:GoogleIdentityProvider')).toHaveLength(1);
    // GitHub has no OAuth app in these settings: no broker for it.
    expect(ofType('keycloak:oidc/githubIdentityProvider:GithubIdentityProvider')).toHaveLength(0);
  });

  it('puts the gateway behind a TLS Ingress on the stack host', () => {
    const [ingress] = ofType('kubernetes:networking.k8s.io/v1:Ingress');
    expect(ingress?.inputs).toMatchObject({
      metadata: { annotations: { 'cert-manager.io/cluster-issuer': 'letsencrypt' } },
      spec: {
        tls: [{ hosts: ['debate.example.org'], secretName: 'gateway-tls' }],
        rules: [{ host: 'debate.example.org' }],
      },
    });
  });
});
