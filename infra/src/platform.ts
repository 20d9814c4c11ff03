import type { NatsDeployable } from '@debate/contracts';
import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { type ServiceName, serviceNames, type StackSettings } from './config.js';
import { Deployable, OPS_PORT } from './components/deployable.js';
import {
  KEYCLOAK_HTTP_PORT,
  KEYCLOAK_MANAGEMENT_PORT,
  KeycloakServer,
} from './components/keycloak-server.js';
import { DebateRealm } from './components/keycloak-realm.js';
import { Mongo, MONGODB_PORT } from './components/mongodb.js';
import { Nats, NATS_CLIENT_PORT, NATS_CLUSTER_PORT, NATS_POD_LABELS } from './components/nats.js';
import { type Flow, NetworkPolicies, portOfUrl } from './components/network-policies.js';
import { ClusterPrerequisites, INGRESS_CLASS } from './components/prerequisites.js';

/** How long a stopping generation pod waits for its running debates (DRAIN_TIMEOUT_MS). */
const GENERATION_DRAIN_MS = 120_000;

/** The gateway's HTTP port, behind the Ingress. */
const GATEWAY_PORT = 3000;
/** The ports the Kubernetes API server may answer on (the operators' pods reach it). */
const KUBERNETES_API_PORTS = [{ port: 443 }, { port: 6443 }];

/** The build arguments of deploy/docker/Dockerfile, by deployable: its image's name. */
const imageOf = (settings: StackSettings, deployable: ServiceName | 'gateway') =>
  `${settings.imageRegistry}/${deployable}:${settings.imageTag}`;

/**
 * The whole platform on Kubernetes: what it needs from the cluster, checked; a namespace; NATS,
 * MongoDB and Keycloak; the realm; each service and the gateway as a Deployable with its NATS
 * and MongoDB settings; the gateway behind a TLS Ingress.
 */
export function createPlatform(settings: StackSettings) {
  const prerequisites = new ClusterPrerequisites('cluster', {
    tlsClusterIssuer: settings.tlsClusterIssuer,
    tlsCaCertificate: settings.tlsCaCertificate,
  });
  // Everything in the cluster is in the namespace: nothing is made there before the checks pass.
  const namespace = new k8s.core.v1.Namespace(
    'debate',
    { metadata: { name: settings.namespace, labels: { 'app.kubernetes.io/part-of': 'debate' } } },
    { dependsOn: [prerequisites] },
  );
  const ns = namespace.metadata.name;
  const nats = new Nats('nats', { namespace: ns, passwords: settings.secrets.natsPasswords });
  const mongo = new Mongo('mongo', {
    namespace: ns,
    rootPassword: settings.secrets.mongoRootPassword,
    servicePasswords: settings.secrets.mongoServicePasswords,
    maxPoolSize: settings.mongoMaxPoolSize,
    atlas:
      settings.atlasProjectId && settings.atlasClusterName
        ? { projectId: settings.atlasProjectId, clusterName: settings.atlasClusterName }
        : undefined,
  });
  const keycloakServer = new KeycloakServer('keycloak', {
    namespace: ns,
    host: settings.keycloakHost,
    tlsClusterIssuer: settings.tlsClusterIssuer,
    adminPassword: settings.secrets.keycloakAdminPassword,
    dbPassword: settings.secrets.keycloakDbPassword,
    replicas: settings.minReplicas,
  });
  const webOrigin = `https://${settings.host}`;
  new DebateRealm(
    'debate-realm',
    {
      url: keycloakServer.publicUrl,
      adminPassword: settings.secrets.keycloakAdminPassword,
      trustedCa: prerequisites.trustedCa,
      webOrigin,
      identityClientSecret: settings.secrets.identityClientSecret,
      oauthApps: settings.oauthApps,
      smtp: settings.smtp,
    },
    { dependsOn: [keycloakServer] },
  );

  const common = {
    namespace: ns,
    files: [nats.caFile],
    minReplicas: settings.minReplicas,
    maxReplicas: settings.maxReplicas,
  };
  const baseEnv = {
    NATS_URL: nats.url,
    NATS_TLS_CA_FILE: nats.caFile.path,
    LOG_LEVEL: 'info',
    // Traces are exported only where there is somewhere to send them (else kept for the logs).
    ...(settings.otlpEndpoint ? { OTEL_EXPORTER_OTLP_ENDPOINT: settings.otlpEndpoint } : {}),
  };
  // The services' streams are kept on every NATS server: an event outlives the loss of one.
  const serviceEnv = { ...baseEnv, JETSTREAM_REPLICAS: String(nats.replicas) };
  const extraEnv: Partial<Record<ServiceName, Record<string, pulumi.Input<string>>>> = {
    // A debate runs for a minute or two with a real model: a generation pod being replaced
    // or scaled down lets the runs it has finish (and their watchers see the end).
    generation: {
      DRAIN_TIMEOUT_MS: String(GENERATION_DRAIN_MS),
      // The operator's models (no key in it: each entry names the variable holding its key).
      ...(settings.modelCatalog !== undefined ? { MODEL_CATALOG: settings.modelCatalog } : {}),
      ...(settings.judgeModels !== undefined ? { JUDGE_MODELS: settings.judgeModels } : {}),
      ...(settings.judgePanelSize !== undefined
        ? { JUDGE_PANEL_SIZE: settings.judgePanelSize }
        : {}),
    },
    usage: settings.usageEnv,
    community: settings.communityEnv,
    identity: {
      KEYCLOAK_URL: keycloakServer.internalUrl,
      KEYCLOAK_PUBLIC_URL: keycloakServer.publicUrl,
      // New e-mail accounts verify their address before their free debates: the realm mails
      // the link (its smtpServer, above); the service reads no SMTP_*. (`off` for a load test's
      // stack only: debate:emailVerification.)
      EMAIL_VERIFICATION: settings.emailVerification,
    },
  };
  // Each deployable signs in to NATS as its own user (named after it), allowed its own subjects.
  const natsPassword = (deployable: NatsDeployable) =>
    settings.secrets.natsPasswords.apply((all) => all[deployable]);
  const extraSecrets: Partial<Record<ServiceName, Record<string, pulumi.Input<string>>>> = {
    identity: { KEYCLOAK_CLIENT_SECRET: settings.secrets.identityClientSecret },
    // The model servers' keys, each as the variable its catalogue entry names.
    generation: {
      ...settings.secrets.modelApiKeys,
      ...(settings.secrets.openaiApiKey ? { OPENAI_API_KEY: settings.secrets.openaiApiKey } : {}),
    },
  };
  const services = Object.fromEntries(
    serviceNames.map((service) => [
      service,
      new Deployable(
        service,
        {
          ...common,
          image: imageOf(settings, service),
          env: { ...serviceEnv, NATS_USER: service, ...extraEnv[service] },
          secretEnv: {
            MONGO_URL: mongo.urls[service],
            NATS_PASSWORD: natsPassword(service),
            ...extraSecrets[service],
          },
          ...(service === 'generation'
            ? { terminationGracePeriodSeconds: (2 * GENERATION_DRAIN_MS) / 1000 + 10 }
            : {}),
        },
        { dependsOn: [nats, mongo] },
      ),
    ]),
  ) as Record<ServiceName, Deployable>;

  const gateway = new Deployable(
    'gateway',
    {
      ...common,
      image: imageOf(settings, 'gateway'),
      httpPort: GATEWAY_PORT,
      env: {
        ...baseEnv,
        NATS_USER: 'gateway',
        PORT: String(GATEWAY_PORT),
        // Its rate-limit counters (the JetStream bucket all its pods share) on every NATS server,
        // as the services' streams.
        JETSTREAM_REPLICAS: serviceEnv.JETSTREAM_REPLICAS,
        AUTH_ISSUER_URL: `${keycloakServer.publicUrl}/realms/debate`,
        AUTH_JWKS_URL: pulumi.interpolate`${keycloakServer.internalUrl}/realms/debate/protocol/openid-connect/certs`,
        // Behind the Ingress, which ends TLS: its X-Forwarded-Proto/Host say what the browser
        // used (the sign-in redirect URI must be the https one the realm knows). Believed from
        // the cluster's private addresses only; the gateway's Service is not exposed otherwise.
        TRUST_PROXY: 'loopback,uniquelocal',
        ...(settings.rateLimits ? { RATE_LIMITS: settings.rateLimits } : {}),
      },
      secretEnv: { NATS_PASSWORD: natsPassword('gateway') },
    },
    { dependsOn: Object.values(services) },
  );

  const ingress = new k8s.networking.v1.Ingress('gateway', {
    metadata: {
      name: 'gateway',
      namespace: ns,
      annotations: {
        'cert-manager.io/cluster-issuer': settings.tlsClusterIssuer,
        // graphql-ws subscriptions stay open while a debate is written.
        'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
        'nginx.ingress.kubernetes.io/proxy-send-timeout': '3600',
      },
    },
    spec: {
      ingressClassName: INGRESS_CLASS,
      tls: [{ hosts: [settings.host], secretName: 'gateway-tls' }],
      rules: [
        {
          host: settings.host,
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: {
                  service: { name: gateway.service.metadata.name, port: { name: 'http' } },
                },
              },
            ],
          },
        },
      ],
    },
  });

  const networkPolicies = new NetworkPolicies(
    'network',
    {
      namespace: ns,
      workloads: {
        ...Object.fromEntries(
          Object.entries(services).map(([service, deployable]) => [service, deployable.podLabels]),
        ),
        gateway: gateway.podLabels,
        nats: NATS_POD_LABELS,
        ...(mongo.podLabels ? { mongo: mongo.podLabels } : {}),
        ...(mongo.operatorPodLabels ? { 'mongo-operator': mongo.operatorPodLabels } : {}),
        keycloak: keycloakServer.podLabels,
        'keycloak-db': keycloakServer.dbPodLabels,
        // cert-manager's HTTP-01 solvers of the two hosts' certificates.
        'acme-solver': { 'acme.cert-manager.io/http01-solver': 'true' },
      },
      flows: platformFlows(settings, mongo),
    },
    { dependsOn: [namespace] },
  );

  return {
    namespace,
    nats,
    mongo,
    keycloakServer,
    services,
    gateway,
    ingress,
    networkPolicies,
    webOrigin,
  };
}

/**
 * Who may reach whom, on which ports: everything else is refused (NetworkPolicies). Browsers
 * reach the gateway and Keycloak through the ingress controller only; the services and the
 * gateway reach NATS; the services their MongoDB; the identity service and the gateway Keycloak;
 * the generation service its model servers; Prometheus the metrics; the operators the
 * Kubernetes API.
 */
function platformFlows(settings: StackSettings, mongo: Mongo): Flow[] {
  const deployables = [...serviceNames, 'gateway'] as const;
  const fromIngress = { namespace: settings.ingressNamespace };
  const anywhere = { anywhere: true } as const;
  const catalog = settings.modelCatalog
    ? (JSON.parse(settings.modelCatalog) as Array<{ baseUrl?: string }>)
    : [];
  // Each model server's port; an entry without a server is on OpenAI's (https).
  const modelPorts = [
    ...new Set(
      catalog.length === 0
        ? [443]
        : catalog.map((entry) => (entry.baseUrl ? portOfUrl(entry.baseUrl) : 443)),
    ),
  ].map((port) => ({ port }));
  return [
    { from: fromIngress, to: { workload: 'gateway' }, ports: [{ port: GATEWAY_PORT }] },
    { from: fromIngress, to: { workload: 'keycloak' }, ports: [{ port: KEYCLOAK_HTTP_PORT }] },
    { from: fromIngress, to: { workload: 'acme-solver' }, ports: [{ port: 8089 }] },
    ...deployables.map((deployable) => ({
      from: { workload: deployable },
      to: { workload: 'nats' },
      ports: [{ port: NATS_CLIENT_PORT }],
    })),
    { from: { workload: 'nats' }, to: { workload: 'nats' }, ports: [{ port: NATS_CLUSTER_PORT }] },
    ...serviceNames.map((service) => ({
      from: { workload: service },
      to: mongo.podLabels ? { workload: 'mongo' } : anywhere,
      ports: [{ port: MONGODB_PORT }],
    })),
    ...(mongo.podLabels
      ? [
          // The members replicate; the operator and the members' agents use the Kubernetes
          // API, and the API server calls the operator's validating webhook (its port 1993).
          {
            from: { workload: 'mongo' },
            to: { workload: 'mongo' },
            ports: [{ port: MONGODB_PORT }],
          },
          { from: { workload: 'mongo' }, to: anywhere, ports: KUBERNETES_API_PORTS },
          { from: { workload: 'mongo-operator' }, to: anywhere, ports: KUBERNETES_API_PORTS },
          { from: anywhere, to: { workload: 'mongo-operator' }, ports: [{ port: 1993 }] },
        ]
      : []),
    ...(['identity', 'gateway'] as const).map((deployable) => ({
      from: { workload: deployable },
      to: { workload: 'keycloak' },
      ports: [{ port: KEYCLOAK_HTTP_PORT }],
    })),
    // Keycloak's database (PostgreSQL's port), its peers (the cache's JGroups ports), the
    // identity providers' token endpoints (https) and the mail server.
    { from: { workload: 'keycloak' }, to: { workload: 'keycloak-db' }, ports: [{ port: 5432 }] },
    { from: { workload: 'keycloak' }, to: { workload: 'keycloak' } },
    {
      from: { workload: 'keycloak' },
      to: anywhere,
      ports: [{ port: 443 }, { port: settings.smtp.port }],
    },
    { from: { workload: 'generation' }, to: anywhere, ports: modelPorts },
    {
      from: { namespace: settings.prometheusNamespace },
      to: { workload: 'keycloak' },
      ports: [{ port: KEYCLOAK_MANAGEMENT_PORT }],
    },
    ...deployables.map((deployable) => ({
      from: { namespace: settings.prometheusNamespace },
      to: { workload: deployable },
      ports: [{ port: OPS_PORT }],
    })),
    ...(settings.otlpEndpoint
      ? deployables.map((deployable) => ({
          from: { workload: deployable },
          to: anywhere,
          ports: [{ port: portOfUrl(settings.otlpEndpoint as string) }],
        }))
      : []),
  ];
}
