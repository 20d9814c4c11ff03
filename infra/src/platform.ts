import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { type ServiceName, serviceNames, type StackSettings } from './config.js';
import { KeycloakServer, Mongo, Nats } from './components/backing-services.js';
import { Deployable } from './components/deployable.js';
import { DebateRealm } from './components/keycloak-realm.js';
import { ClusterPrerequisites, INGRESS_CLASS } from './components/prerequisites.js';

/** How long a stopping generation pod waits for its running debates (DRAIN_TIMEOUT_MS). */
export const GENERATION_DRAIN_MS = 120_000;

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
  const nats = new Nats('nats', { namespace: ns });
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
    minReplicas: settings.minReplicas,
    maxReplicas: settings.maxReplicas,
  };
  const baseEnv = {
    NATS_URL: nats.url,
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
    },
    usage: settings.usageEnv,
    identity: {
      KEYCLOAK_URL: keycloakServer.internalUrl,
      KEYCLOAK_PUBLIC_URL: keycloakServer.publicUrl,
      // New e-mail accounts verify their address before their free debates: the realm mails
      // the link (its smtpServer, above); the service reads no SMTP_*.
      EMAIL_VERIFICATION: 'required',
    },
  };
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
          env: { ...serviceEnv, ...extraEnv[service] },
          secretEnv: { MONGO_URL: mongo.urls[service], ...extraSecrets[service] },
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
      httpPort: 3000,
      env: {
        ...baseEnv,
        PORT: '3000',
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
      secretEnv: {},
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

  return { namespace, nats, mongo, keycloakServer, services, gateway, ingress, webOrigin };
}
