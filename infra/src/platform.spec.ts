import {
  ModelCatalog,
  NATS_CLUSTER_NAME,
  NATS_MAX_PINGS_OUT,
  NATS_PING_INTERVAL_SECONDS,
  natsAuthorization,
  natsDeployables,
} from '@debate/contracts';
import { beforeAll, describe, expect, it } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { readFileSync } from 'node:fs';
import type { StackSettings } from './config.js';
import { TEST_CA_CERTIFICATE } from './testing/certificates.js';
import { allows, type Endpoint, type Policy } from './testing/network-policy.js';

interface Created {
  readonly type: string;
  readonly name: string;
  /** The id of a resource read from the cluster rather than created (else empty). */
  readonly id: string | undefined;
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

/** Whether the value at `path`, or anything on the way to it, is marked secret. */
function markedSecretOnPath(value: unknown, path: readonly string[]): boolean {
  if (isSecret(value)) return true;
  const [key, ...rest] = path;
  if (key === undefined || !value || typeof value !== 'object') return false;
  return markedSecretOnPath((value as Record<string, unknown>)[key], rest);
}

/** The recorded inputs as they were sent, secrets still marked. */
const raw = new Map<string, unknown>();

/**
 * What the cluster's operators and charts make of the resources the program declares, named
 * as their own code names them (the program's names must meet these, or the tests fail):
 * - a Helm release gets Pulumi's name for it, `<resource name>-<random suffix>`;
 * - the nats-io chart (helm/charts/nats/templates/_helpers.tpl, nats.fullname) names its
 *   client Service after the release when the release's name contains "nats", else
 *   `<release>-nats`;
 * - the MongoDB operator (mongodb-community-operator/api/v1/mongodbcommunity_types.go,
 *   ServiceName and Hosts) runs a MongoDBCommunity `<name>` as the StatefulSet `<name>` behind
 *   the headless Service `<name>-svc` (unless spec.statefulSet.spec.serviceName names
 *   another): its members answer as `<name>-<i>.<service>.<namespace>.svc.cluster.local:27017`,
 *   in the replica set `<name>`.
 * And the pods they run, with their labels (what NetworkPolicies select):
 * - the nats-io chart's servers carry nats.selectorLabels (`app.kubernetes.io/name` the chart's
 *   name, `instance` the release's, `component: nats`), and its routes name each server
 *   `<fullname>-<i>.<fullname>-headless` (`.<namespace>.svc.<domain>` with routeURLs.useFQDN:
 *   files/config/cluster.yaml);
 * - the MongoDB operator's replica set members carry `app: <ServiceName>`
 *   (controllers/construct/mongodbstatefulset.go), the operator `app.kubernetes.io/name:
 *   <operator.name>` (helm_chart/templates/operator.yaml, mongodb-kubernetes-operator by default);
 * - a Deployment's and a StatefulSet's pods carry their template's labels.
 */
const cluster = {
  /** The DNS names the cluster answers, with what answers there. */
  hosts: new Map<string, 'nats' | 'mongod'>(),
  replicaSets: new Set<string>(),
  /** The hosts the NATS servers' routes connect to. */
  natsRoutes: [] as string[],
  /** Every pod, by what runs in it. */
  pods: new Map<string, Endpoint>(),
};
const RELEASE_SUFFIX = '7c1e2f0a';

function operate(type: string, inputs: Record<string, unknown>, releaseName: string): void {
  if (type === 'kubernetes:helm.sh/v3:Release' && inputs['chart'] === 'nats') {
    const namespace = String(inputs['namespace']);
    const service = releaseName.includes('nats') ? releaseName : `${releaseName}-nats`;
    cluster.hosts.set(`${service}.${namespace}.svc.cluster.local:4222`, 'nats');
    const { config } = inputs['values'] as {
      config: { cluster: { replicas: number; routeURLs?: { useFQDN?: boolean } } };
    };
    for (let i = 0; i < config.cluster.replicas; i += 1) {
      const host = `${service}-${i}.${service}-headless`;
      cluster.natsRoutes.push(
        config.cluster.routeURLs?.useFQDN ? `${host}.${namespace}.svc.cluster.local` : host,
      );
      cluster.pods.set(`nats-${i}`, {
        namespace,
        labels: {
          'app.kubernetes.io/name': 'nats',
          'app.kubernetes.io/instance': releaseName,
          'app.kubernetes.io/component': 'nats',
        },
      });
    }
  }
  if (type === 'kubernetes:helm.sh/v3:Release' && inputs['chart'] === 'mongodb-kubernetes') {
    const { operator } = inputs['values'] as { operator: { name?: string } };
    const operatorName = operator.name ?? 'mongodb-kubernetes-operator';
    cluster.pods.set('mongo-operator', {
      namespace: String(inputs['namespace']),
      labels: {
        'app.kubernetes.io/component': 'controller',
        'app.kubernetes.io/name': operatorName,
        'app.kubernetes.io/instance': operatorName,
      },
    });
  }
  if (type === 'kubernetes:apps/v1:Deployment' || type === 'kubernetes:apps/v1:StatefulSet') {
    const { metadata, spec } = inputs as {
      metadata: { name: string; namespace: string };
      spec: { template: { metadata: { labels: Record<string, string> } } };
    };
    cluster.pods.set(metadata.name, {
      namespace: metadata.namespace,
      labels: spec.template.metadata.labels,
    });
  }
  if (type === 'kubernetes:mongodbcommunity.mongodb.com/v1:MongoDBCommunity') {
    const { name, namespace } = inputs['metadata'] as { name: string; namespace: string };
    const { members, statefulSet } = inputs['spec'] as {
      members: number;
      statefulSet?: { spec?: { serviceName?: string } };
    };
    const service = statefulSet?.spec?.serviceName || `${name}-svc`;
    for (let i = 0; i < members; i += 1) {
      cluster.hosts.set(`${name}-${i}.${service}.${namespace}.svc.cluster.local:27017`, 'mongod');
      cluster.pods.set(`mongod-${i}`, { namespace, labels: { app: service } });
    }
    cluster.replicaSets.add(name);
  }
}

/** The ClusterIssuer the cluster has (cert-manager's CA issuer). */
const ISSUER = { name: 'debate-ca', spec: { ca: { secretName: 'debate-ca' } } };

// No Pulumi CLI and no cluster: every resource is recorded instead of created.
pulumi.runtime.setMocks(
  {
    newResource(args) {
      raw.set(`${args.type}::${args.name}`, args.inputs);
      const inputs = plain(args.inputs) as Record<string, unknown>;
      created.push({ type: args.type, name: args.name, id: args.id, inputs });
      const releaseName = String(inputs['name'] ?? `${args.name}-${RELEASE_SUFFIX}`);
      operate(args.type, inputs, releaseName);
      const metadata = (args.inputs['metadata'] ?? {}) as Record<string, unknown>;
      return {
        id: args.id || `${args.name}-id`,
        state: {
          ...args.inputs,
          metadata: { ...metadata, name: metadata['name'] ?? args.name },
          ...(args.type === 'kubernetes:helm.sh/v3:Release'
            ? { status: { name: releaseName } }
            : {}),
          ...(args.type === 'kubernetes:cert-manager.io/v1:ClusterIssuer' && args.id === ISSUER.name
            ? { spec: ISSUER.spec }
            : {}),
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
  smtp: 'smtp-pw-0000000000000',
  vllm: 'vllm-key-00000000000000',
};
/** The stack's SMTP server, with a login. */
const SMTP = {
  host: 'smtp.example.org',
  port: 587,
  from: 'debate@example.org',
  fromDisplayName: 'AI Debate',
  starttls: true,
  ssl: false,
  auth: { username: 'mailer', password: pulumi.secret(SECRETS.smtp) },
};
/** One with every character a URL reserves: it must reach the driver as it is. */
const servicePasswords = {
  identity: 'pw-identity-000000',
  usage: 'p@ss:w/rd?#[x]%25 &=+ü',
  generation: 'pw-generation-000000',
  debates: 'pw-debates-000000',
  community: 'pw-community-000000',
};
type Service = keyof typeof servicePasswords;
const SERVICES = Object.keys(servicePasswords) as Service[];
/** Each deployable's NATS password; one with what NATS's configuration quotes (`"`, `\`). */
const natsPasswords = {
  gateway: 'nats-gateway-"quoted"\\-0000',
  identity: 'nats-identity-00000000',
  usage: 'nats-usage-00000000',
  generation: 'nats-generation-00000000',
  debates: 'nats-debates-00000000',
  community: 'nats-community-00000000',
};

/** The gateway's rate limits the stack sets. */
const RATE_LIMITS = '{"signUp":{"address":"3/1h"}}';

/** The operator's models: OpenAI's key, a keyless Ollama, a vLLM reading its key from VLLM_KEY. */
const MODEL_CATALOG = [
  { id: 'gpt-4o', label: 'GPT-4o', apiKeyEnv: 'OPENAI_API_KEY', providerModel: 'gpt-4o' },
  {
    id: 'llama-local',
    label: 'Llama 3.1 8B (Ollama)',
    baseUrl: 'http://ollama.models.svc.cluster.local:11434/v1',
    providerModel: 'llama3.1:8b',
    structuredOutput: 'json_schema',
  },
  {
    id: 'qwen-72b',
    label: 'Qwen 2.5 72B (vLLM)',
    baseUrl: 'https://vllm.example.org/v1',
    apiKeyEnv: 'VLLM_KEY',
    providerModel: 'Qwen/Qwen2.5-72B-Instruct',
  },
];

function settings(overrides: Partial<StackSettings> = {}): StackSettings {
  return {
    namespace: 'debate-test',
    imageRegistry: 'registry.example.org/debate',
    imageTag: '1.2.3',
    host: 'debate.example.org',
    keycloakHost: 'sso.example.org',
    ingressNamespace: 'ingress-nginx',
    prometheusNamespace: 'monitoring',
    tlsClusterIssuer: ISSUER.name,
    tlsCaCertificate: TEST_CA_CERTIFICATE,
    minReplicas: 2,
    maxReplicas: 6,
    atlasProjectId: undefined,
    atlasClusterName: undefined,
    otlpEndpoint: 'http://otel-collector.observability.svc.cluster.local:4318',
    mongoMaxPoolSize: 15,
    usageEnv: { USAGE_TEST_ACCOUNT_EMAIL: 'tester@example.org', USAGE_STARTS_PER_MINUTE: '12' },
    communityEnv: { LEADERBOARD_DAILY_LIMIT: '2' },
    rateLimits: RATE_LIMITS,
    modelCatalog: JSON.stringify(MODEL_CATALOG),
    judgeModels: 'qwen-72b',
    judgePanelSize: '2',
    // Google has an OAuth app in these settings, GitHub none.
    oauthApps: {
      google: { clientId: 'google-client', clientSecret: pulumi.secret('google-secret-000000') },
    },
    smtp: SMTP,
    emailVerification: 'required',
    secrets: {
      mongoRootPassword: pulumi.secret(SECRETS.mongoRoot),
      mongoServicePasswords: pulumi.secret(servicePasswords),
      natsPasswords: pulumi.secret(natsPasswords),
      keycloakAdminPassword: pulumi.secret(SECRETS.keycloakAdmin),
      keycloakDbPassword: pulumi.secret(SECRETS.keycloakDb),
      identityClientSecret: pulumi.secret(SECRETS.identityClient),
      openaiApiKey: pulumi.secret(SECRETS.openai),
      modelApiKeys: { VLLM_KEY: pulumi.secret(SECRETS.vllm) },
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
  await settled(pulumi.all([platform.ingress.urn, platform.networkPolicies.urn]));
  await Promise.all(
    [...Object.values(platform.services), platform.gateway].map((deployable) =>
      settled(pulumi.all([deployable.autoscaler.urn, deployable.secret.urn, deployable.host])),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  return platform;
}

const ofType = (type: string) => created.filter((resource) => resource.type === type);
const named = (type: string, name: string) => {
  const found = ofType(type).find((resource) => resource.name === name);
  if (!found) throw new Error(`no ${type} ${name}`);
  return found;
};
type EnvVar = { name: string; value?: unknown; valueFrom?: unknown };
type Container = {
  env: EnvVar[];
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
const envOf = (deployment: Created) => containerOf(deployment).containers[0]?.env ?? [];
const valueOf = (deployment: Created, variable: string) =>
  envOf(deployment).find((entry) => entry.name === variable)?.value;
const secretEnvOf = (deployable: string) =>
  named('kubernetes:core/v1:Secret', `${deployable}-env`).inputs['stringData'] as Record<
    string,
    string
  >;

/** A mongodb:// URL taken apart as the driver reads it (the user part percent-decoded). */
function mongoUrlParts(url: string) {
  const match = /^mongodb:\/\/([^:@/?#]+):([^@/?#]*)@([^/?#]+)\/\?([^#]*)$/.exec(url);
  if (!match) throw new Error(`not a mongodb:// URL with a user and password: ${url}`);
  const [, user = '', password = '', hosts = '', query = ''] = match;
  return {
    user: decodeURIComponent(user),
    password: decodeURIComponent(password),
    hosts: hosts.split(','),
    options: Object.fromEntries(new URLSearchParams(query)),
  };
}

const DEPLOYABLES = ['identity', 'usage', 'generation', 'debates', 'community', 'gateway'];
const DEPLOYMENT = 'kubernetes:apps/v1:Deployment';

describe('the platform on Kubernetes (Pulumi, mocked)', () => {
  beforeAll(async () => {
    await run(settings());
  });

  it('has one Deployment, Service and HorizontalPodAutoscaler per deployable', () => {
    const autoscalers = ofType('kubernetes:autoscaling/v2:HorizontalPodAutoscaler');
    expect(autoscalers.map((resource) => resource.name).sort()).toEqual([...DEPLOYABLES].sort());
    for (const name of DEPLOYABLES) {
      named(DEPLOYMENT, name);
      named('kubernetes:core/v1:Service', name);
    }
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

  it('spreads the replicas of every deployable and of Keycloak over the nodes, and lets a drain evict one at a time', () => {
    const budgets = ofType('kubernetes:policy/v1:PodDisruptionBudget');
    expect(budgets.map((budget) => budget.name).sort()).toEqual(
      [...DEPLOYABLES, 'keycloak'].sort(),
    );
    for (const name of [...DEPLOYABLES, 'keycloak']) {
      const deployment = named(DEPLOYMENT, name).inputs as {
        spec: {
          selector: { matchLabels: Record<string, string> };
          template: { metadata: { labels: Record<string, string> }; spec: { affinity?: unknown } };
        };
      };
      const podLabels = deployment.spec.template.metadata.labels;
      // The budget selects exactly this Deployment's pods.
      expect([name, named('kubernetes:policy/v1:PodDisruptionBudget', name).inputs]).toEqual([
        name,
        expect.objectContaining({
          metadata: expect.objectContaining({ namespace: 'debate-test' }),
          spec: { maxUnavailable: 1, selector: { matchLabels: podLabels } },
        }),
      ]);
      // A node of their own where there is one: preferred, so that fewer nodes still run them all.
      expect([name, deployment.spec.template.spec.affinity]).toEqual([
        name,
        {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 100,
                podAffinityTerm: {
                  labelSelector: { matchLabels: podLabels },
                  topologyKey: 'kubernetes.io/hostname',
                },
              },
            ],
          },
        },
      ]);
    }
  });

  it('probes every pod on its operations port, limits it, and runs it as non-root, read-only', () => {
    for (const name of DEPLOYABLES) {
      const deployment = named(DEPLOYMENT, name);
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
      expect(container?.image).toBe(`registry.example.org/debate/${name}:1.2.3`);
    }
  });

  it('has the gateway believe the Ingress in front of it, and only it', () => {
    for (const name of DEPLOYABLES) {
      expect(valueOf(named(DEPLOYMENT, name), 'TRUST_PROXY')).toBe(
        name === 'gateway' ? 'loopback,uniquelocal' : undefined,
      );
    }
  });

  it("gives the gateway the stack's rate limits, and nobody else", () => {
    for (const name of DEPLOYABLES) {
      expect([name, valueOf(named(DEPLOYMENT, name), 'RATE_LIMITS')]).toEqual([
        name,
        name === 'gateway' ? RATE_LIMITS : undefined,
      ]);
    }
  });

  it("gives the generation service the stack's judges as JUDGE_MODELS, and nobody else", () => {
    for (const name of DEPLOYABLES) {
      const value = valueOf(named(DEPLOYMENT, name), 'JUDGE_MODELS');
      expect([name, value]).toEqual([name, name === 'generation' ? 'qwen-72b' : undefined]);
      const panelSize = valueOf(named(DEPLOYMENT, name), 'JUDGE_PANEL_SIZE');
      expect([name, panelSize]).toEqual([name, name === 'generation' ? '2' : undefined]);
    }
  });

  it("gives the generation service the stack's model catalogue as MODEL_CATALOG, and nobody else", () => {
    for (const name of DEPLOYABLES) {
      const value = valueOf(named(DEPLOYMENT, name), 'MODEL_CATALOG');
      if (name === 'generation') {
        // Intact, and what the service's own schema accepts.
        expect(JSON.parse(String(value))).toEqual(MODEL_CATALOG);
        expect(ModelCatalog.safeParse(JSON.parse(String(value))).success).toBe(true);
      } else {
        expect([name, value]).toEqual([name, undefined]);
      }
      // Not a secret: in the Deployment, in no Secret.
      expect([name, Object.keys(secretEnvOf(name)).includes('MODEL_CATALOG')]).toEqual([
        name,
        false,
      ]);
    }
  });

  it("puts the model servers' keys in the generation service's Secret as their variables, and nowhere else", () => {
    const generationSecret = secretEnvOf('generation');
    // Every key variable the catalogue names is in it: the service would refuse to start.
    for (const entry of MODEL_CATALOG) {
      if (entry.apiKeyEnv) expect(Object.keys(generationSecret)).toContain(entry.apiKeyEnv);
    }
    expect(generationSecret['VLLM_KEY']).toBe(SECRETS.vllm);
    expect(generationSecret['OPENAI_API_KEY']).toBe(SECRETS.openai);
    const inputs = raw.get('kubernetes:core/v1:Secret::generation-env');
    expect(markedSecretOnPath(inputs, ['stringData', 'VLLM_KEY'])).toBe(true);
    // Nowhere else: no other resource (Deployment, ConfigMap, another Secret) holds it.
    for (const resource of created) {
      if (resource.type === 'kubernetes:core/v1:Secret' && resource.name === 'generation-env') {
        continue;
      }
      const text = JSON.stringify(resource.inputs);
      expect([resource.type, resource.name, text.includes(SECRETS.vllm)]).toEqual([
        resource.type,
        resource.name,
        false,
      ]);
    }
    for (const name of DEPLOYABLES) {
      const variables = envOf(named(DEPLOYMENT, name)).map((variable) => variable.name);
      expect([name, variables.includes('VLLM_KEY')]).toEqual([name, false]);
      if (name !== 'generation') {
        expect([name, Object.keys(secretEnvOf(name)).includes('VLLM_KEY')]).toEqual([name, false]);
      }
    }
  });

  it('gives a stopping generation pod time to finish its debates, the others the default', () => {
    for (const name of DEPLOYABLES) {
      const deployment = named(DEPLOYMENT, name);
      const pod = containerOf(deployment) as ReturnType<typeof containerOf> & {
        terminationGracePeriodSeconds: number;
      };
      const drain = valueOf(deployment, 'DRAIN_TIMEOUT_MS');
      if (name === 'generation') {
        expect(drain).toBe('120000');
        // The requests it took, then its runs: each may take the drain time, and a margin.
        expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual((2 * 120_000) / 1000);
      } else {
        expect(drain).toBeUndefined();
        expect(pod.terminationGracePeriodSeconds).toBe(30);
      }
    }
  });

  it('keeps every secret out of the Deployments and StatefulSets: they read them from Secrets', () => {
    const everySecret = [
      ...Object.values(SECRETS),
      ...Object.values(servicePasswords),
      ...Object.values(natsPasswords),
    ];
    for (const workload of [...ofType(DEPLOYMENT), ...ofType('kubernetes:apps/v1:StatefulSet')]) {
      const text = JSON.stringify(workload.inputs);
      for (const secret of everySecret)
        expect([workload.name, text.includes(secret)]).toEqual([workload.name, false]);
    }
    for (const name of DEPLOYABLES) {
      const [container] = containerOf(named(DEPLOYMENT, name)).containers;
      expect(container?.envFrom).toEqual([{ secretRef: { name: `${name}-env` } }]);
    }
    expect(secretEnvOf('identity')['KEYCLOAK_CLIENT_SECRET']).toBe(SECRETS.identityClient);
    expect(secretEnvOf('generation')['OPENAI_API_KEY']).toBe(SECRETS.openai);
    // …and Pulumi keeps them encrypted in its state: they are marked secret.
    for (const name of ['identity-env', 'generation-env', 'usage-env', 'mongo-passwords']) {
      const inputs = raw.get(`kubernetes:core/v1:Secret::${name}`) as Record<string, unknown>;
      expect([name, isSecret(inputs['stringData'])]).toEqual([name, true]);
    }
  });

  it('has every deployable export its traces to the configured OTLP endpoint', () => {
    for (const name of DEPLOYABLES) {
      expect([name, valueOf(named(DEPLOYMENT, name), 'OTEL_EXPORTER_OTLP_ENDPOINT')]).toEqual([
        name,
        'http://otel-collector.observability.svc.cluster.local:4318',
      ]);
    }
  });

  it('gives every service the NATS Service the chart creates', () => {
    for (const name of DEPLOYABLES) {
      const url = String(valueOf(named(DEPLOYMENT, name), 'NATS_URL'));
      expect([name, cluster.hosts.get(url.replace(/^nats:\/\//, ''))]).toEqual([name, 'nats']);
    }
  });

  it("keeps every service's streams, and the gateway's rate-limit bucket, on all the NATS cluster's servers (JETSTREAM_REPLICAS)", () => {
    const nats = named('kubernetes:helm.sh/v3:Release', 'nats').inputs as {
      values: { config: { cluster: { enabled: boolean; replicas: number } } };
    };
    expect(nats.values.config.cluster).toMatchObject({ enabled: true, replicas: 3 });
    for (const service of DEPLOYABLES) {
      expect([service, valueOf(named(DEPLOYMENT, service), 'JETSTREAM_REPLICAS')]).toEqual([
        service,
        String(nats.values.config.cluster.replicas),
      ]);
    }
  });

  it("runs the NATS servers with the contracts' pings and cluster name, each named after its pod", () => {
    const { config } = (
      named('kubernetes:helm.sh/v3:Release', 'nats').inputs as {
        values: {
          config: { merge: Record<string, unknown>; cluster: { merge?: Record<string, unknown> } };
        };
      }
    ).values;
    // The chart merges config.merge into every server's configuration, cluster.merge into its
    // cluster block (files/config/config.yaml, nats.loadMergePatch).
    expect(config.merge).toMatchObject({
      ping_interval: `${NATS_PING_INTERVAL_SECONDS}s`,
      ping_max: NATS_MAX_PINGS_OUT,
    });
    expect(config.cluster.merge?.['name']).toBe(NATS_CLUSTER_NAME);
    // The chart names each server after its pod ($SERVER_NAME); one name set here would be
    // every server's, and JetStream's cluster needs them apart.
    expect(JSON.stringify(config)).not.toContain('server_name');
  });

  it('runs MongoDB through its operator, with a user per service on its own database', () => {
    const operator = named('kubernetes:helm.sh/v3:Release', 'mongo-operator');
    expect(operator.inputs).toMatchObject({
      chart: 'mongodb-kubernetes',
      repositoryOpts: { repo: 'https://mongodb.github.io/helm-charts' },
      namespace: 'debate-test',
      values: { operator: { watchedResources: ['mongodbcommunity'] } },
    });
    const replicaSet = named(
      'kubernetes:mongodbcommunity.mongodb.com/v1:MongoDBCommunity',
      'mongo',
    );
    const spec = replicaSet.inputs['spec'] as {
      members: number;
      version: string;
      users: Array<{
        name: string;
        db: string;
        passwordSecretRef: { name: string; key: string };
        roles: Array<{ name: string; db: string }>;
      }>;
    };
    expect(spec.members).toBe(3);
    expect(spec.version).toMatch(/^8\.0\.\d+$/);
    // The services start once it runs, not while the operator is still making it.
    expect(replicaSet.inputs['metadata']).toMatchObject({
      annotations: { 'pulumi.com/waitFor': 'jsonpath={.status.phase}=Running' },
    });
    const passwords = named('kubernetes:core/v1:Secret', 'mongo-passwords').inputs as {
      metadata: { name: string };
      stringData: Record<string, string>;
    };
    for (const service of SERVICES) {
      const user = spec.users.find((candidate) => candidate.name === service);
      expect(user).toMatchObject({ db: service, roles: [{ name: 'readWrite', db: service }] });
      expect(user?.passwordSecretRef.name).toBe(passwords.metadata.name);
      expect(passwords.stringData[user?.passwordSecretRef.key ?? '']).toBe(
        servicePasswords[service],
      );
    }
  });

  it('gives every service a MongoDB URL of the replica set the operator runs, its user and pool', () => {
    for (const service of SERVICES) {
      const url = mongoUrlParts(secretEnvOf(service)['MONGO_URL'] ?? '');
      expect(url.user).toBe(service);
      expect(url.password).toBe(servicePasswords[service]);
      expect(url.hosts.length).toBeGreaterThan(0);
      for (const host of url.hosts) {
        expect([service, host, cluster.hosts.get(host)]).toEqual([service, host, 'mongod']);
      }
      expect(cluster.replicaSets.has(url.options['replicaSet'] ?? '')).toBe(true);
      expect(url.options).toMatchObject({
        authSource: service,
        maxPoolSize: '15',
        maxIdleTimeMS: '60000',
      });
    }
  });

  it('gives the services, over MongoDB Atlas, URLs with their passwords encoded', async () => {
    const { Mongo } = await import('./components/mongodb.js');
    const atlas = new Mongo('atlas', {
      namespace: 'debate-test',
      rootPassword: pulumi.secret(SECRETS.mongoRoot),
      servicePasswords: pulumi.secret(servicePasswords),
      maxPoolSize: 15,
      atlas: { projectId: 'project-1', clusterName: 'cluster0' },
    });
    const url = await settled(atlas.urls.usage);
    const match =
      /^mongodb\+srv:\/\/([^:@/?#]+):([^@/?#]*)@cluster0\.example\.mongodb\.net\/\?/.exec(url);
    expect(match?.[1]).toBe('debate-usage');
    expect(decodeURIComponent(match?.[2] ?? '')).toBe(servicePasswords.usage);
  });

  it("gives the usage service the stack's usage rules, and leaves the others to its defaults", () => {
    for (const name of DEPLOYABLES) {
      const usageVariables = envOf(named(DEPLOYMENT, name)).filter((variable) =>
        variable.name.startsWith('USAGE_'),
      );
      expect([name, usageVariables]).toEqual([
        name,
        name === 'usage'
          ? [
              { name: 'USAGE_TEST_ACCOUNT_EMAIL', value: 'tester@example.org' },
              { name: 'USAGE_STARTS_PER_MINUTE', value: '12' },
            ]
          : [],
      ]);
    }
  });

  it("gives the community service the stack's daily limit, and no other deployable", () => {
    for (const name of DEPLOYABLES) {
      const limit = envOf(named(DEPLOYMENT, name)).filter(
        (variable) => variable.name === 'LEADERBOARD_DAILY_LIMIT',
      );
      expect([name, limit]).toEqual([
        name,
        name === 'community' ? [{ name: 'LEADERBOARD_DAILY_LIMIT', value: '2' }] : [],
      ]);
    }
  });

  it('runs Keycloak 26 (the official image) on its PostgreSQL, and points the platform at it', () => {
    const keycloak = named(DEPLOYMENT, 'keycloak');
    const [container] = containerOf(keycloak).containers;
    expect(container?.image).toMatch(/^quay\.io\/keycloak\/keycloak:26\.\d+\.\d+$/);
    const database = named('kubernetes:core/v1:Service', 'keycloak-db').inputs as {
      metadata: { name: string };
    };
    expect(valueOf(keycloak, 'KC_DB_URL_HOST')).toBe(database.metadata.name);
    expect(valueOf(keycloak, 'KC_HOSTNAME')).toBe('https://sso.example.org');
    // Ready once its bootstrap has ended, not when /health/ready first says UP.
    expect(container?.readinessProbe.httpGet).toEqual({
      path: '/realms/master/.well-known/openid-configuration',
      port: 'http',
    });

    // Where the identity service and the gateway reach it: the Service in front of it.
    const service = named('kubernetes:core/v1:Service', 'keycloak').inputs as {
      metadata: { name: string };
      spec: { ports: Array<{ name: string; port: number }> };
    };
    const http = service.spec.ports.find((port) => port.name === 'http');
    const inside = `http://${service.metadata.name}.debate-test.svc.cluster.local:${http?.port}`;
    expect(valueOf(named(DEPLOYMENT, 'identity'), 'KEYCLOAK_URL')).toBe(inside);
    expect(valueOf(named(DEPLOYMENT, 'gateway'), 'AUTH_JWKS_URL')).toBe(
      `${inside}/realms/debate/protocol/openid-connect/certs`,
    );
    expect(valueOf(named(DEPLOYMENT, 'gateway'), 'AUTH_ISSUER_URL')).toBe(
      'https://sso.example.org/realms/debate',
    );
  });

  it("checks what it needs from the cluster: ingress-nginx, metrics-server, cert-manager's issuer", () => {
    const reads = created.filter((resource) => resource.id);
    expect(reads.map((resource) => [resource.type, resource.id]).sort()).toEqual(
      [
        ['kubernetes:apiregistration.k8s.io/v1:APIService', 'v1beta1.metrics.k8s.io'],
        ['kubernetes:cert-manager.io/v1:ClusterIssuer', ISSUER.name],
        ['kubernetes:networking.k8s.io/v1:IngressClass', 'nginx'],
      ].sort(),
    );
  });

  it("has the Keycloak provider sign in only when it calls Keycloak, trusting the stack's CA", () => {
    const [provider] = ofType('pulumi:providers:keycloak');
    // (A provider's settings reach the engine as strings.)
    expect(provider?.inputs).toMatchObject({
      url: 'https://sso.example.org',
      initialLogin: 'false',
      tlsInsecureSkipVerify: 'false',
      rootCaCertificate: TEST_CA_CERTIFICATE,
    });
  });

  it('gives the Keycloak provider a minute for each admin call, not its default 5 s', () => {
    // At 5 s, a realm created slowly by a Keycloak just started timed out, and every later
    // `pulumi up` met 409 creating it again.
    const [provider] = ofType('pulumi:providers:keycloak');
    expect(provider?.inputs['clientTimeout']).toBe('60');
  });

  it('declares the realm with its policy, its two clients and the brokers configured', () => {
    const realm = ofType('keycloak:index/realm:Realm')[0];
    expect(realm?.inputs).toMatchObject({
      realm: 'debate',
      passwordPolicy:
        'length(8) and notEmail(undefined) and passwordBlacklist(common-passwords.txt)',
      securityDefenses: { bruteForceDetection: { maxLoginFailures: 5 } },
    });
    const clients = ofType('keycloak:openid/client:Client');
    expect(clients.map((client) => client.inputs['clientId']).sort()).toEqual([
      'debate-web',
      'identity-service',
    ]);
    // No password grant straight to the realm with the public client: the e-mail form goes
    // through the gateway and the identity service's confidential client.
    const grants = Object.fromEntries(
      clients.map((client) => [
        client.inputs['clientId'],
        client.inputs['directAccessGrantsEnabled'],
      ]),
    );
    expect(grants).toEqual({ 'debate-web': false, 'identity-service': true });
    const google = ofType('keycloak:oidc/googleIdentityProvider:GoogleIdentityProvider');
    expect(google.map((broker) => broker.inputs['clientId'])).toEqual(['google-client']);
    // GitHub has no OAuth app in these settings: no broker for it.
    expect(ofType('keycloak:oidc/githubIdentityProvider:GithubIdentityProvider')).toHaveLength(0);
  });

  it("puts the gateway's audience in the tokens of exactly the clients people sign in through", () => {
    const mappers = ofType('keycloak:openid/audienceProtocolMapper:AudienceProtocolMapper');
    expect(
      mappers
        .map((mapper) => [mapper.inputs['clientId'], mapper.inputs['includedCustomAudience']])
        .sort(),
    ).toEqual([
      ['debate-realm-identity-service-id', 'debate-gateway'],
      ['debate-realm-web-id', 'debate-gateway'],
    ]);
    expect(mappers.every((mapper) => mapper.inputs['addToAccessToken'] === true)).toBe(true);
  });

  it("gives Keycloak the realm file's list of common passwords, where its policy looks", () => {
    const list = named('kubernetes:core/v1:ConfigMap', 'keycloak-password-blacklists');
    const data = list.inputs['data'] as Record<string, string>;
    expect(Object.keys(data)).toEqual(['common-passwords.txt']);
    expect(data['common-passwords.txt']).toBe(
      readFileSync(new URL('../../deploy/keycloak/common-passwords.txt', import.meta.url), 'utf8'),
    );
    const pod = containerOf(named(DEPLOYMENT, 'keycloak')) as ReturnType<typeof containerOf> & {
      volumes: Array<{ name: string; configMap?: { name: string } }>;
      containers: Array<{ volumeMounts: Array<{ name: string; mountPath: string }> }>;
    };
    expect(pod.volumes).toContainEqual({
      name: 'password-blacklists',
      configMap: { name: 'keycloak-password-blacklists' },
    });
    expect(pod.containers[0]?.volumeMounts).toContainEqual(
      expect.objectContaining({
        name: 'password-blacklists',
        mountPath: '/opt/keycloak/data/password-blacklists',
      }),
    );
  });

  it("sends the realm's mail through the stack's SMTP server, its password a secret", () => {
    const realm = ofType('keycloak:index/realm:Realm')[0];
    expect(realm?.inputs['smtpServer']).toEqual({
      host: 'smtp.example.org',
      port: '587',
      from: 'debate@example.org',
      fromDisplayName: 'AI Debate',
      starttls: true,
      ssl: false,
      auth: { username: 'mailer', password: SECRETS.smtp },
    });
    // …kept encrypted in Pulumi's state: the password, or what holds it, is marked secret.
    const inputs = raw.get(`keycloak:index/realm:Realm::${realm?.name}`);
    expect(markedSecretOnPath(inputs, ['smtpServer', 'auth', 'password'])).toBe(true);
  });

  it('leaves address verification to the identity service, as the realm file does', () => {
    const file = JSON.parse(
      readFileSync(new URL('../../deploy/keycloak/debate-realm.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    const realm = ofType('keycloak:index/realm:Realm')[0]?.inputs ?? {};
    // Keycloak does not ask at every sign-in…
    expect(realm['verifyEmail']).toBe(false);
    expect(realm['verifyEmail']).toBe(file['verifyEmail']);
    // …the identity service has new e-mail accounts verify their address, through the realm's
    // mail: it gets no SMTP server of its own (it reads none), nor does any
    // other deployable.
    const identity = named(DEPLOYMENT, 'identity');
    expect(valueOf(identity, 'EMAIL_VERIFICATION')).toBe('required');
    expect(valueOf(identity, 'KEYCLOAK_URL')).toBeDefined();
    for (const name of DEPLOYABLES) {
      const variables = [
        ...envOf(named(DEPLOYMENT, name)).map((variable) => variable.name),
        ...Object.keys(secretEnvOf(name)),
      ];
      expect([name, variables.filter((variable) => variable.startsWith('SMTP_'))]).toEqual([
        name,
        [],
      ]);
      if (name !== 'identity') {
        expect([name, valueOf(named(DEPLOYMENT, name), 'EMAIL_VERIFICATION')]).toEqual([
          name,
          undefined,
        ]);
      }
    }
  });

  it("keeps the realm file's sessions: refresh tokens good once, the same lifetimes", () => {
    const file = JSON.parse(
      readFileSync(new URL('../../deploy/keycloak/debate-realm.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    const seconds = (duration: unknown) => {
      const [, amount, unit] = /^(\d+)([smh])$/.exec(String(duration)) ?? [];
      return Number(amount) * { s: 1, m: 60, h: 3600 }[unit as 's' | 'm' | 'h'];
    };
    const realm = ofType('keycloak:index/realm:Realm')[0]?.inputs ?? {};
    expect({
      revokeRefreshToken: realm['revokeRefreshToken'],
      refreshTokenMaxReuse: realm['refreshTokenMaxReuse'],
      accessTokenLifespan: seconds(realm['accessTokenLifespan']),
      ssoSessionIdleTimeout: seconds(realm['ssoSessionIdleTimeout']),
      ssoSessionMaxLifespan: seconds(realm['ssoSessionMaxLifespan']),
    }).toEqual({
      revokeRefreshToken: file['revokeRefreshToken'],
      refreshTokenMaxReuse: file['refreshTokenMaxReuse'],
      accessTokenLifespan: file['accessTokenLifespan'],
      ssoSessionIdleTimeout: file['ssoSessionIdleTimeout'],
      ssoSessionMaxLifespan: file['ssoSessionMaxLifespan'],
    });
  });

  it("gives the brokers the realm file's PKCE and picture mapper", () => {
    const [google] = ofType('keycloak:oidc/googleIdentityProvider:GoogleIdentityProvider');
    expect(google?.inputs['extraConfig']).toEqual({ pkceEnabled: 'true', pkceMethod: 'S256' });
    const mappers = ofType(
      'keycloak:index/customIdentityProviderMapping:CustomIdentityProviderMapping',
    );
    expect(mappers.map((mapper) => mapper.inputs)).toEqual([
      expect.objectContaining({
        name: 'picture',
        identityProviderMapper: 'oidc-user-attribute-idp-mapper',
        extraConfig: { syncMode: 'FORCE', claim: 'picture', 'user.attribute': 'picture' },
      }),
    ]);
  });

  it('declares the user profile of deploy/keycloak/debate-realm.json: names optional', () => {
    const [profile] = ofType('keycloak:index/realmUserProfile:RealmUserProfile');
    const attributes = profile?.inputs['attributes'] as Array<Record<string, unknown>>;
    const attribute = (name: string) => attributes.find((candidate) => candidate['name'] === name);
    // A user made with a username, an e-mail address and a password is fully set up.
    for (const name of ['firstName', 'lastName']) {
      expect(attribute(name)).toBeDefined();
      expect(attribute(name)?.['requiredForRoles']).toBeUndefined();
      expect(attribute(name)?.['requiredForScopes']).toBeUndefined();
    }
    expect(attribute('email')?.['requiredForRoles']).toEqual(['user']);

    // …and everything else as the realm file (which compose and the tests import) declares it.
    const file = readRealmFileProfile();
    expect(attributes).toEqual(
      file.attributes.map((fileAttribute) => ({
        name: fileAttribute.name,
        validators: Object.entries(fileAttribute.validations ?? {}).map(([name, config]) =>
          Object.keys(config).length === 0
            ? { name }
            : {
                name,
                config: Object.fromEntries(
                  Object.entries(config).map(([key, value]) => [key, String(value)]),
                ),
              },
        ),
        ...(fileAttribute.required?.roles
          ? { requiredForRoles: fileAttribute.required.roles }
          : {}),
        permissions: {
          views: fileAttribute.permissions.view,
          edits: fileAttribute.permissions.edit,
        },
        multiValued: fileAttribute.multivalued,
      })),
    );
    expect(profile?.inputs['groups']).toEqual(file.groups);
  });

  it('puts the gateway behind a TLS Ingress of ingress-nginx on the stack host', () => {
    expect(named('kubernetes:networking.k8s.io/v1:Ingress', 'gateway').inputs).toMatchObject({
      metadata: { annotations: { 'cert-manager.io/cluster-issuer': ISSUER.name } },
      spec: {
        ingressClassName: 'nginx',
        tls: [{ hosts: ['debate.example.org'], secretName: 'gateway-tls' }],
        rules: [{ host: 'debate.example.org' }],
      },
    });
  });

  it('puts Keycloak behind a TLS Ingress whose certificate Pulumi waits for before the realm', () => {
    const ingress = named('kubernetes:networking.k8s.io/v1:Ingress', 'keycloak').inputs as {
      spec: { ingressClassName: string; tls: Array<{ hosts: string[]; secretName: string }> };
    };
    expect(ingress.spec.ingressClassName).toBe('nginx');
    const [tls] = ingress.spec.tls;
    expect(tls?.hosts).toEqual(['sso.example.org']);
    const certificate = named('kubernetes:cert-manager.io/v1:Certificate', 'keycloak-tls');
    expect(certificate.inputs).toMatchObject({
      metadata: { annotations: { 'pulumi.com/waitFor': 'condition=Ready' } },
      spec: {
        secretName: tls?.secretName,
        dnsNames: ['sso.example.org'],
        issuerRef: { kind: 'ClusterIssuer', name: ISSUER.name },
      },
    });
  });

  it('refuses, as the program runs (index.ts), a bad catalogue and a missing key before declaring anything', async () => {
    const { readSettings } = await import('./config.js');
    const { createPlatform } = await import('./platform.js');
    const stack = {
      'debate:imageRegistry': 'registry.example.org/debate',
      'debate:imageTag': '1.2.3',
      'debate:host': 'debate.example.org',
      'debate:keycloakHost': 'sso.example.org',
      'debate:tlsClusterIssuer': ISSUER.name,
      'debate:tlsCaCertificate': TEST_CA_CERTIFICATE,
      'debate:mongoRootPassword': SECRETS.mongoRoot,
      'debate:mongoServicePasswords': JSON.stringify(servicePasswords),
      'debate:natsPasswords': JSON.stringify(natsPasswords),
      'debate:keycloakAdminPassword': SECRETS.keycloakAdmin,
      'debate:keycloakDbPassword': SECRETS.keycloakDb,
      'debate:identityClientSecret': SECRETS.identityClient,
      'debate:openaiApiKey': SECRETS.openai,
      'debate:smtpHost': 'smtp.example.org',
      'debate:smtpFrom': 'debate@example.org',
      'debate:modelApiKeys': JSON.stringify({ VLLM_KEY: SECRETS.vllm }),
    };
    const secretKeys = ['debate:openaiApiKey', 'debate:modelApiKeys'];
    const program = (catalog: unknown, keys: Record<string, string> = {}) => {
      pulumi.runtime.setAllConfig(
        { ...stack, ...keys, 'debate:modelCatalog': JSON.stringify(catalog) },
        secretKeys,
      );
      return () => createPlatform(readSettings());
    };
    const before = created.length;
    const [openai, ollama, vllm] = MODEL_CATALOG;
    expect(program([openai, { ...ollama, structuredOutput: 'tools' }, vllm])).toThrow(
      'debate:modelCatalog[1] ("llama-local").structuredOutput: ',
    );
    expect(program(MODEL_CATALOG, { 'debate:modelApiKeys': '{"VLLM_TOKEN":"k"}' })).toThrow(
      'debate:modelCatalog[2] ("qwen-72b") reads its key from VLLM_KEY, which neither ' +
        'debate:modelApiKeys nor debate:openaiApiKey sets',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(created.length).toBe(before);
  });

  it('gives each deployable its own NATS user: its name, its password from its Secret', () => {
    for (const name of DEPLOYABLES) {
      const deployment = named(DEPLOYMENT, name);
      expect([name, valueOf(deployment, 'NATS_USER')]).toEqual([name, name]);
      expect([name, secretEnvOf(name)['NATS_PASSWORD']]).toEqual([
        name,
        natsPasswords[name as keyof typeof natsPasswords],
      ]);
      const inputs = raw.get(`kubernetes:core/v1:Secret::${name}-env`);
      expect([name, markedSecretOnPath(inputs, ['stringData', 'NATS_PASSWORD'])]).toEqual([
        name,
        true,
      ]);
      expect(envOf(deployment).some((variable) => variable.name === 'NATS_PASSWORD')).toBe(false);
    }
  });

  it("runs NATS with the permission map's users, read from a Secret and not from the chart's values", () => {
    const release = named('kubernetes:helm.sh/v3:Release', 'nats').inputs as {
      values: {
        config: { merge: Record<string, unknown> };
        container: { patch: Array<{ value: { name: string; mountPath: string } }> };
        podTemplate: { patch: Array<{ value: { name: string; secret: { secretName: string } } }> };
      };
    };
    // The chart writes `$include` as an include relative to its /etc/nats-config/nats.conf.
    const include = String(release.values.config.merge['$include'] ?? '');
    const included = new URL(include, 'file:///etc/nats-config/nats.conf').pathname;
    const mount = release.values.container.patch
      .map((patch) => patch.value)
      .find((candidate) => included.startsWith(`${candidate.mountPath}/`));
    const volume = release.values.podTemplate.patch
      .map((patch) => patch.value)
      .find((candidate) => candidate.name === mount?.name);
    const secret = ofType('kubernetes:core/v1:Secret').find(
      (candidate) =>
        (candidate.inputs['metadata'] as { name: string }).name === volume?.secret.secretName,
    );
    const file = included.slice((mount?.mountPath.length ?? 0) + 1);
    const data = secret?.inputs['stringData'] as Record<string, string> | undefined;
    expect(data?.[file]).toBe(natsAuthorization(natsPasswords));
    const inputs = raw.get(`kubernetes:core/v1:Secret::${secret?.name ?? ''}`);
    expect(markedSecretOnPath(inputs, ['stringData', file])).toBe(true);
    // No password in the chart's values (its ConfigMap), nor in any Deployment.
    const values = JSON.stringify(release.values);
    for (const password of Object.values(natsPasswords)) {
      expect(values.includes(password)).toBe(false);
    }
    expect(natsDeployables.every((deployable) => data?.[file]?.includes(`"${deployable}"`))).toBe(
      true,
    );
  });

  it("serves NATS over TLS only, with a certificate of the namespace's authority naming the Service and every route", () => {
    const CERTIFICATE = 'kubernetes:cert-manager.io/v1:Certificate';
    const ISSUER_TYPE = 'kubernetes:cert-manager.io/v1:Issuer';
    type Certificate = {
      spec: {
        secretName: string;
        dnsNames?: string[];
        isCA?: boolean;
        usages?: string[];
        issuerRef: { kind: string; name: string };
      };
    };
    const release = named('kubernetes:helm.sh/v3:Release', 'nats').inputs as {
      values: {
        config: { nats: { tls: TlsValues }; cluster: { tls: TlsValues } };
        tlsCA: { enabled: boolean; secretName: string; key: string };
      };
    };
    type TlsValues = { enabled: boolean; secretName: string };
    const { nats: client, cluster: routes } = release.values.config;
    expect(client.tls.enabled && routes.tls.enabled).toBe(true);
    const certificateOf = (secretName: string) =>
      ofType(CERTIFICATE)
        .map((resource) => resource.inputs as Certificate)
        .find((certificate) => certificate.spec.secretName === secretName);
    const server = certificateOf(client.tls.secretName);
    expect(certificateOf(routes.tls.secretName)).toBe(server);
    // Both ends of a route present it: a server and a client certificate.
    expect(server?.spec.usages).toEqual(expect.arrayContaining(['server auth', 'client auth']));
    // It names the host the deployables connect to, and each route's host.
    const names = server?.spec.dnsNames ?? [];
    const covers = (host: string) =>
      names.some((name) =>
        name.startsWith('*.') ? host.slice(host.indexOf('.') + 1) === name.slice(2) : name === host,
      );
    const natsHost = String(valueOf(named(DEPLOYMENT, 'gateway'), 'NATS_URL'))
      .replace(/^nats:\/\//, '')
      .replace(/:\d+$/, '');
    expect(cluster.natsRoutes).toHaveLength(3);
    for (const host of [natsHost, ...cluster.natsRoutes])
      expect([host, covers(host)]).toEqual([host, true]);
    // Signed by a CA Issuer of the namespace whose authority cert-manager makes (self-signed).
    const issuerOf = (name: string) =>
      ofType(ISSUER_TYPE).find(
        (resource) => (resource.inputs['metadata'] as { name: string }).name === name,
      )?.inputs['spec'] as { ca?: { secretName: string }; selfSigned?: object } | undefined;
    expect(server?.spec.issuerRef.kind).toBe('Issuer');
    const caSecret = issuerOf(server?.spec.issuerRef.name ?? '')?.ca?.secretName ?? '';
    const authority = certificateOf(caSecret);
    expect(authority?.spec.isCA).toBe(true);
    expect(issuerOf(authority?.spec.issuerRef.name ?? '')?.selfSigned).toEqual({});
    // The servers verify the routes' peers against that authority.
    expect(release.values.tlsCA).toEqual({
      enabled: true,
      secretName: client.tls.secretName,
      key: 'ca.crt',
    });
    // Each deployable trusts it: NATS_TLS_CA_FILE is the authority's certificate (ca.crt of the
    // servers' Secret, which cert-manager fills with its issuer's), and only that, mounted.
    for (const name of DEPLOYABLES) {
      const pod = containerOf(named(DEPLOYMENT, name)) as ReturnType<typeof containerOf> & {
        volumes: Array<{ name: string; secret?: { secretName: string; items?: unknown[] } }>;
        containers: Array<{
          volumeMounts: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
        }>;
      };
      const caFile = String(valueOf(named(DEPLOYMENT, name), 'NATS_TLS_CA_FILE'));
      const mount = pod.containers[0]?.volumeMounts.find((candidate) =>
        caFile.startsWith(`${candidate.mountPath}/`),
      );
      const volume = pod.volumes.find((candidate) => candidate.name === mount?.name);
      expect([name, mount?.readOnly, volume?.secret]).toEqual([
        name,
        true,
        {
          secretName: client.tls.secretName,
          items: [{ key: 'ca.crt', path: caFile.slice((mount?.mountPath.length ?? 0) + 1) }],
        },
      ]);
    }
  });

  it('denies every connection in the namespace but those the platform needs (NetworkPolicies)', () => {
    const policies: Policy[] = ofType('kubernetes:networking.k8s.io/v1:NetworkPolicy')
      .map((resource) => resource.inputs as unknown as Policy & { metadata: { namespace: string } })
      .map((policy) => ({
        namespace: (policy as unknown as { metadata: { namespace: string } }).metadata.namespace,
        spec: policy.spec,
      }));
    const pod = (name: string) => {
      const found = cluster.pods.get(name);
      if (!found) throw new Error(`no pod ${name}`);
      return found;
    };
    // What is outside the namespace: the ingress controller, Prometheus, a pod of another
    // namespace, cert-manager's HTTP-01 solver (in the namespace), and the Internet.
    const ingressController: Endpoint = {
      namespace: 'ingress-nginx',
      labels: {
        'app.kubernetes.io/name': 'ingress-nginx',
        'app.kubernetes.io/component': 'controller',
      },
    };
    const prometheus: Endpoint = {
      namespace: 'monitoring',
      labels: { 'app.kubernetes.io/name': 'prometheus' },
    };
    const stranger: Endpoint = { namespace: 'default', labels: { app: 'stranger' } };
    const solver: Endpoint = {
      namespace: 'debate-test',
      labels: { 'acme.cert-manager.io/http01-solver': 'true' },
    };
    const internet: Endpoint = { outside: true };
    const can = (from: Endpoint, to: Endpoint, port: number) => allows(policies, from, to, port);
    const expectFlows = (flows: Array<[string, Endpoint, Endpoint, number, boolean]>) => {
      for (const [label, from, to, port, allowed] of flows) {
        expect([label, port, can(from, to, port)]).toEqual([label, port, allowed]);
      }
    };

    expectFlows([
      // Browsers, through the ingress controller: the gateway and Keycloak, nothing else.
      ['ingress → gateway', ingressController, pod('gateway'), 3000, true],
      ['ingress → keycloak', ingressController, pod('keycloak'), 8080, true],
      ['ingress → acme solver', ingressController, solver, 8089, true],
      ['ingress → gateway ops', ingressController, pod('gateway'), 9464, false],
      ['ingress → community', ingressController, pod('community'), 9464, false],
      ['ingress → nats', ingressController, pod('nats-0'), 4222, false],
      ['stranger → gateway', stranger, pod('gateway'), 3000, false],
      ['stranger → nats', stranger, pod('nats-0'), 4222, false],
      ['stranger → mongod', stranger, pod('mongod-0'), 27017, false],
      ['internet → keycloak', internet, pod('keycloak'), 8080, false],
      // NATS: every deployable, and the servers to one another.
      ...DEPLOYABLES.map((name): [string, Endpoint, Endpoint, number, boolean] => [
        `${name} → nats`,
        pod(name),
        pod('nats-1'),
        4222,
        true,
      ]),
      ['nats → nats routes', pod('nats-0'), pod('nats-2'), 6222, true],
      ['keycloak → nats', pod('keycloak'), pod('nats-0'), 4222, false],
      ['gateway → nats routes', pod('gateway'), pod('nats-0'), 6222, false],
      // MongoDB: the services, not the gateway nor Keycloak; the members to one another.
      ...SERVICES.map((name): [string, Endpoint, Endpoint, number, boolean] => [
        `${name} → mongod`,
        pod(name),
        pod('mongod-2'),
        27017,
        true,
      ]),
      ['gateway → mongod', pod('gateway'), pod('mongod-0'), 27017, false],
      ['keycloak → mongod', pod('keycloak'), pod('mongod-0'), 27017, false],
      ['mongod → mongod', pod('mongod-0'), pod('mongod-1'), 27017, true],
      ['operator → API server', pod('mongo-operator'), internet, 443, true],
      // Keycloak: the identity service and the gateway (its keys); its database Keycloak's.
      ['identity → keycloak', pod('identity'), pod('keycloak'), 8080, true],
      ['gateway → keycloak', pod('gateway'), pod('keycloak'), 8080, true],
      ['community → keycloak', pod('community'), pod('keycloak'), 8080, false],
      ['generation → keycloak', pod('generation'), pod('keycloak'), 8080, false],
      ['keycloak → keycloak-db', pod('keycloak'), pod('keycloak-db'), 5432, true],
      ['identity → keycloak-db', pod('identity'), pod('keycloak-db'), 5432, false],
      ['keycloak → identity providers', pod('keycloak'), internet, 443, true],
      ['keycloak → mail server', pod('keycloak'), internet, 587, true],
      // The services do not reach one another but through NATS.
      ['gateway → community ops', pod('gateway'), pod('community'), 9464, false],
      ['usage → generation ops', pod('usage'), pod('generation'), 9464, false],
      // The model servers: the generation service alone, on the catalogue's ports.
      ['generation → OpenAI, vLLM', pod('generation'), internet, 443, true],
      ['generation → Ollama', pod('generation'), internet, 11434, true],
      ['generation → elsewhere', pod('generation'), internet, 22, false],
      ['community → internet', pod('community'), internet, 443, false],
      ['gateway → internet', pod('gateway'), internet, 443, false],
      ['nats → internet', pod('nats-0'), internet, 443, false],
      // Traces to the collector, metrics to Prometheus.
      ['usage → OTLP collector', pod('usage'), internet, 4318, true],
      ...DEPLOYABLES.map((name): [string, Endpoint, Endpoint, number, boolean] => [
        `prometheus → ${name}`,
        prometheus,
        pod(name),
        9464,
        true,
      ]),
      ['prometheus → keycloak', prometheus, pod('keycloak'), 9000, true],
      ['stranger → community metrics', stranger, pod('community'), 9464, false],
    ]);
    // DNS for every pod.
    for (const name of [...DEPLOYABLES, 'nats-0', 'mongod-0', 'keycloak', 'keycloak-db']) {
      expect([name, allows(policies, pod(name), internet, 53, 'UDP')]).toEqual([name, true]);
    }
    // A pod the program does not declare (a debugging pod, a chart's test) is shut too.
    const unknown: Endpoint = { namespace: 'debate-test', labels: { run: 'debug' } };
    expectFlows([
      ['stranger → unknown pod', stranger, unknown, 8080, false],
      ['gateway → unknown pod', pod('gateway'), unknown, 8080, false],
      ['unknown pod → nats', unknown, pod('nats-0'), 4222, false],
      ['unknown pod → internet', unknown, internet, 443, false],
    ]);
    // Every pod of the namespace is under a policy in both directions (the default denial).
    for (const [name, endpoint] of cluster.pods) {
      expect([
        name,
        can(pod('keycloak-db'), endpoint, 12345),
        can(endpoint, internet, 12345),
      ]).toEqual([name, false, false]);
    }
  });

  // (After the NetworkPolicies: it declares Deployments of its own.)
  it('gives a deployable or a Keycloak of one pod neither a budget nor a node preference', async () => {
    const { Deployable } = await import('./components/deployable.js');
    const { KeycloakServer } = await import('./components/keycloak-server.js');
    const single = new Deployable('single', {
      namespace: 'debate-test',
      image: 'single:1',
      env: {},
      secretEnv: {},
      minReplicas: 1,
      maxReplicas: 1,
    });
    const keycloak = new KeycloakServer('single-keycloak', {
      namespace: 'debate-test',
      host: 'sso-single.example.org',
      tlsClusterIssuer: ISSUER.name,
      adminPassword: pulumi.secret(SECRETS.keycloakAdmin),
      dbPassword: pulumi.secret(SECRETS.keycloakDb),
      replicas: 1,
    });
    await settled(pulumi.all([single.autoscaler.urn, keycloak.ingress.urn]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const name of ['single', 'single-keycloak']) {
      const pod = (
        named(DEPLOYMENT, name).inputs as { spec: { template: { spec: Record<string, unknown> } } }
      ).spec.template.spec;
      expect([name, pod['affinity']]).toEqual([name, undefined]);
    }
    const budgets = ofType('kubernetes:policy/v1:PodDisruptionBudget').map((budget) => budget.name);
    expect(budgets).not.toContain('single');
    expect(budgets).not.toContain('single-keycloak');
    // (A deployable the autoscaler may grow past one pod has both: the test above, at 2 to 6.)
    expect(single.disruptionBudget).toBeUndefined();
  });

  // (Last: it declares resources of its own.)
  it('holds back every resource of a Deployable and of the realm until what they depend on is up', async () => {
    const { Deployable } = await import('./components/deployable.js');
    const { DebateRealm } = await import('./components/keycloak-realm.js');
    const first = new pulumi.ComponentResource('test:index:First', 'first');
    // What each resource was declared with (a component's own dependsOn does not reach its
    // children: each must carry it).
    const declared = new Map<string, pulumi.ResourceOptions>();
    const record: pulumi.ResourceTransformation = ({ type, name, opts }) => {
      if (!type.startsWith('debate:platform:')) declared.set(`${type} ${name}`, opts);
      return undefined;
    };
    const options = { dependsOn: [first], transformations: [record] };
    const deployable = new Deployable(
      'probe',
      {
        namespace: 'debate-test',
        image: 'probe:1',
        env: {},
        secretEnv: {},
        minReplicas: 1,
        maxReplicas: 1,
      },
      options,
    );
    const realm = new DebateRealm(
      'probe-realm',
      {
        url: 'https://sso.example.org',
        adminPassword: pulumi.secret(SECRETS.keycloakAdmin),
        trustedCa: undefined,
        webOrigin: 'https://debate.example.org',
        identityClientSecret: pulumi.secret(SECRETS.identityClient),
        oauthApps: {},
        smtp: { ...SMTP, auth: undefined },
      },
      options,
    );
    await settled(pulumi.all([deployable.autoscaler.urn, realm.serviceClient.urn]));
    const children = [...declared];
    // The Secret, Deployment, Service and autoscaler; the provider, realm, profile, clients,
    // their audience mappers, and the service account's two roles.
    expect(children).toHaveLength(13);
    for (const [name, opts] of children) {
      expect([name, opts.dependsOn]).toEqual([name, [first]]);
    }
  });
});

/** Keycloak's declarative user profile, as the realm file stores it (a JSON string). */
interface FileProfile {
  attributes: Array<{
    name: string;
    validations?: Record<string, Record<string, unknown>>;
    required?: { roles?: string[] };
    permissions: { view: string[]; edit: string[] };
    multivalued: boolean;
  }>;
  groups: unknown[];
}

function readRealmFileProfile(): FileProfile {
  const realm = JSON.parse(
    readFileSync(new URL('../../deploy/keycloak/debate-realm.json', import.meta.url), 'utf8'),
  ) as {
    components: Record<string, Array<{ config: Record<string, string[]> }>>;
  };
  const [provider] = realm.components['org.keycloak.userprofile.UserProfileProvider'] ?? [];
  const [profile] = provider?.config['kc.user.profile.config'] ?? [];
  return JSON.parse(profile ?? '{}') as FileProfile;
}
