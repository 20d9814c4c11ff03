import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { disruptionBudget, scrapeAnnotations, spreadOverNodes } from './deployable.js';
import { INGRESS_CLASS } from './prerequisites.js';
import { realmFilePasswordBlacklists } from './user-profile.js';

export interface KeycloakServerArgs {
  readonly namespace: pulumi.Input<string>;
  readonly host: string;
  readonly tlsClusterIssuer: string;
  readonly adminPassword: pulumi.Input<string>;
  readonly dbPassword: pulumi.Input<string>;
  /** Keycloak's pods (they form one cluster through the database). */
  readonly replicas: number;
}

/** The official Keycloak image; the realm is managed through its admin API (DebateRealm). */
const KEYCLOAK_IMAGE = 'quay.io/keycloak/keycloak:26.7.3';
/**
 * Keycloak's database: the official PostgreSQL image (17; compose runs 18.6, whose image keeps
 * its data under /var/lib/postgresql rather than this StatefulSet's /var/lib/postgresql/data).
 */
const POSTGRES_IMAGE = 'postgres:17';
export const KEYCLOAK_HTTP_PORT = 8080;
/** Keycloak's management interface: /health/started, /health/live, /health/ready, /metrics. */
export const KEYCLOAK_MANAGEMENT_PORT = 9000;
/** Where Keycloak's passwordBlacklist policy looks for its lists by default (kc.home.dir/data). */
const KEYCLOAK_BLACKLISTS_DIR = '/opt/keycloak/data/password-blacklists';

/**
 * Keycloak on the official image, in production mode behind its own TLS Ingress, on its own
 * PostgreSQL (one instance with a persistent volume). Its pods find each other through that
 * database (the jdbc-ping cache stack), so they need no extra Service or multicast; with more
 * than one, they prefer separate nodes and a PodDisruptionBudget has a drain take one at a time.
 */
export class KeycloakServer extends pulumi.ComponentResource {
  /** As the services reach it, and as browsers (and Pulumi) do. */
  readonly internalUrl: pulumi.Output<string>;
  readonly publicUrl: string;
  readonly service: k8s.core.v1.Service;
  readonly ingress: k8s.networking.v1.Ingress;
  /** The labels of Keycloak's pods, and of its database's. */
  readonly podLabels: Readonly<Record<string, string>>;
  readonly dbPodLabels: Readonly<Record<string, string>>;

  constructor(name: string, args: KeycloakServerArgs, options?: pulumi.ComponentResourceOptions) {
    super('debate:platform:KeycloakServer', name, {}, options);
    const ns = args.namespace;
    const dbName = `${name}-db`;
    const dbLabels = { 'app.kubernetes.io/name': dbName, 'app.kubernetes.io/part-of': 'debate' };
    const labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': 'debate' };
    this.podLabels = labels;
    this.dbPodLabels = dbLabels;
    const secret = new k8s.core.v1.Secret(
      `${name}-secrets`,
      {
        metadata: { name: `${name}-secrets`, namespace: ns, labels },
        type: 'Opaque',
        stringData: { 'db-password': args.dbPassword, 'admin-password': args.adminPassword },
      },
      { parent: this },
    );
    const fromSecret = (key: string) => ({
      secretKeyRef: { name: secret.metadata.name, key },
    });
    // The lists the realm's password policy refuses passwords from (deploy/keycloak).
    const blacklists = new k8s.core.v1.ConfigMap(
      `${name}-password-blacklists`,
      {
        metadata: { name: `${name}-password-blacklists`, namespace: ns, labels },
        data: realmFilePasswordBlacklists(),
      },
      { parent: this },
    );

    const dbService = new k8s.core.v1.Service(
      dbName,
      {
        metadata: { name: dbName, namespace: ns, labels: dbLabels },
        spec: { selector: dbLabels, ports: [{ name: 'postgres', port: 5432, targetPort: 5432 }] },
      },
      { parent: this },
    );
    const database = new k8s.apps.v1.StatefulSet(
      dbName,
      {
        metadata: { name: dbName, namespace: ns, labels: dbLabels },
        spec: {
          serviceName: dbService.metadata.name,
          replicas: 1,
          selector: { matchLabels: dbLabels },
          template: {
            metadata: { labels: dbLabels },
            spec: {
              automountServiceAccountToken: false,
              // The image's postgres user.
              securityContext: {
                runAsNonRoot: true,
                runAsUser: 999,
                runAsGroup: 999,
                fsGroup: 999,
                seccompProfile: { type: 'RuntimeDefault' },
              },
              containers: [
                {
                  name: 'postgres',
                  image: POSTGRES_IMAGE,
                  ports: [{ name: 'postgres', containerPort: 5432 }],
                  env: [
                    { name: 'POSTGRES_DB', value: 'keycloak' },
                    { name: 'POSTGRES_USER', value: 'keycloak' },
                    { name: 'POSTGRES_PASSWORD', valueFrom: fromSecret('db-password') },
                    // A folder inside the volume: a new volume's root may hold lost+found.
                    { name: 'PGDATA', value: '/var/lib/postgresql/data/pgdata' },
                  ],
                  readinessProbe: {
                    exec: { command: ['pg_isready', '-U', 'keycloak', '-d', 'keycloak'] },
                    periodSeconds: 5,
                  },
                  resources: {
                    requests: { cpu: '100m', memory: '256Mi' },
                    limits: { cpu: '1', memory: '1Gi' },
                  },
                  securityContext: {
                    allowPrivilegeEscalation: false,
                    capabilities: { drop: ['ALL'] },
                  },
                  volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }],
                },
              ],
            },
          },
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: {
                accessModes: ['ReadWriteOnce'],
                resources: { requests: { storage: '10Gi' } },
              },
            },
          ],
        },
      },
      { parent: this },
    );

    const probe = (path: string, periodSeconds: number) => ({
      httpGet: { path, port: 'management' },
      periodSeconds,
      timeoutSeconds: 3,
      failureThreshold: 3,
    });
    new k8s.apps.v1.Deployment(
      name,
      {
        metadata: { name, namespace: ns, labels },
        spec: {
          replicas: args.replicas,
          selector: { matchLabels: labels },
          template: {
            metadata: {
              labels,
              annotations: scrapeAnnotations(KEYCLOAK_MANAGEMENT_PORT),
            },
            spec: {
              automountServiceAccountToken: false,
              // The image's keycloak user. (Its root filesystem stays writable: `start`
              // builds the server for these options when it starts.)
              securityContext: {
                runAsNonRoot: true,
                runAsUser: 1000,
                seccompProfile: { type: 'RuntimeDefault' },
              },
              ...(args.replicas > 1 ? { affinity: spreadOverNodes(labels) } : {}),
              containers: [
                {
                  name: 'keycloak',
                  image: KEYCLOAK_IMAGE,
                  args: ['start'],
                  ports: [
                    { name: 'http', containerPort: KEYCLOAK_HTTP_PORT },
                    { name: 'management', containerPort: KEYCLOAK_MANAGEMENT_PORT },
                  ],
                  env: [
                    { name: 'KC_DB', value: 'postgres' },
                    { name: 'KC_DB_URL_HOST', value: dbService.metadata.name },
                    { name: 'KC_DB_URL_DATABASE', value: 'keycloak' },
                    { name: 'KC_DB_USERNAME', value: 'keycloak' },
                    { name: 'KC_DB_PASSWORD', valueFrom: fromSecret('db-password') },
                    { name: 'KC_BOOTSTRAP_ADMIN_USERNAME', value: 'admin' },
                    {
                      name: 'KC_BOOTSTRAP_ADMIN_PASSWORD',
                      valueFrom: fromSecret('admin-password'),
                    },
                    // Tokens name the address browsers use; the services reach it inside.
                    { name: 'KC_HOSTNAME', value: `https://${args.host}` },
                    { name: 'KC_HOSTNAME_BACKCHANNEL_DYNAMIC', value: 'true' },
                    // The Ingress ends TLS and says what the browser used.
                    { name: 'KC_HTTP_ENABLED', value: 'true' },
                    { name: 'KC_PROXY_HEADERS', value: 'xforwarded' },
                    { name: 'KC_HEALTH_ENABLED', value: 'true' },
                    { name: 'KC_METRICS_ENABLED', value: 'true' },
                    { name: 'KC_CACHE', value: 'ispn' },
                    { name: 'KC_CACHE_STACK', value: 'jdbc-ping' },
                  ],
                  startupProbe: { ...probe('/health/started', 5), failureThreshold: 60 },
                  livenessProbe: probe('/health/live', 10),
                  // Ready once the realm API answers: /health/ready says UP a few seconds before
                  // Keycloak's bootstrap ends, and until then every request (the Pulumi provider's
                  // too) gets 503 'Bootstrap in progress' (seen on Keycloak 26.7.3).
                  readinessProbe: {
                    httpGet: {
                      path: '/realms/master/.well-known/openid-configuration',
                      port: 'http',
                    },
                    periodSeconds: 5,
                    timeoutSeconds: 3,
                    failureThreshold: 3,
                  },
                  resources: {
                    requests: { cpu: '500m', memory: '1Gi' },
                    limits: { cpu: '2', memory: '2Gi' },
                  },
                  securityContext: {
                    allowPrivilegeEscalation: false,
                    capabilities: { drop: ['ALL'] },
                  },
                  volumeMounts: [
                    {
                      name: 'password-blacklists',
                      mountPath: KEYCLOAK_BLACKLISTS_DIR,
                      readOnly: true,
                    },
                  ],
                },
              ],
              volumes: [
                {
                  name: 'password-blacklists',
                  configMap: { name: blacklists.metadata.name },
                },
              ],
            },
          },
        },
      },
      { parent: this, dependsOn: [database] },
    );
    // Sign-in goes on through a drain: its pods are evicted one at a time (the sign-ins in
    // progress live in Keycloak's distributed cache, each entry on two of its pods by default).
    if (args.replicas > 1) disruptionBudget(name, ns, labels, { parent: this });

    this.service = new k8s.core.v1.Service(
      name,
      {
        metadata: { name, namespace: ns, labels },
        spec: {
          selector: labels,
          ports: [{ name: 'http', port: KEYCLOAK_HTTP_PORT, targetPort: 'http' }],
        },
      },
      { parent: this },
    );

    // The certificate, asked of cert-manager directly (not through the Ingress's annotation)
    // so that Pulumi waits until it is issued: the realm is then managed over TLS through
    // this address, and must not meet the ingress controller's placeholder certificate.
    const tlsSecret = `${name}-tls`;
    new k8s.apiextensions.CustomResource(
      tlsSecret,
      {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: {
          name: tlsSecret,
          namespace: ns,
          labels,
          annotations: { 'pulumi.com/waitFor': 'condition=Ready' },
        },
        spec: {
          secretName: tlsSecret,
          dnsNames: [args.host],
          issuerRef: {
            group: 'cert-manager.io',
            kind: 'ClusterIssuer',
            name: args.tlsClusterIssuer,
          },
        },
      },
      { parent: this },
    );
    this.ingress = new k8s.networking.v1.Ingress(
      name,
      {
        metadata: {
          name,
          namespace: ns,
          labels,
          // Keycloak's redirects carry large headers (cookies, the state of a sign-in).
          annotations: { 'nginx.ingress.kubernetes.io/proxy-buffer-size': '128k' },
        },
        spec: {
          ingressClassName: INGRESS_CLASS,
          tls: [{ hosts: [args.host], secretName: tlsSecret }],
          rules: [
            {
              host: args.host,
              http: {
                paths: [
                  {
                    path: '/',
                    pathType: 'Prefix',
                    backend: {
                      service: { name: this.service.metadata.name, port: { name: 'http' } },
                    },
                  },
                ],
              },
            },
          ],
        },
      },
      { parent: this },
    );

    this.internalUrl = pulumi.interpolate`http://${this.service.metadata.name}.${ns}.svc.cluster.local:${KEYCLOAK_HTTP_PORT}`;
    this.publicUrl = `https://${args.host}`;
    this.registerOutputs({ internalUrl: this.internalUrl, publicUrl: this.publicUrl });
  }
}
