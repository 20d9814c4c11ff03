import {
  NATS_CLUSTER_NAME,
  NATS_MAX_PINGS_OUT,
  NATS_PING_INTERVAL_SECONDS,
  type NatsDeployable,
  natsAuthorization,
} from '@debate/contracts';
import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';

/** The nats-io chart's NATS servers: JetStream keeps a copy of each stream on every one. */
const NATS_CLUSTER_SIZE = 3;
export const NATS_CLIENT_PORT = 4222;
/** The servers' routes to one another (the chart's cluster port). */
export const NATS_CLUSTER_PORT = 6222;
/** The release's name, and so (it contains "nats") the chart's fullname: its Service's. */
const RELEASE = 'nats';
/** The chart's pod labels (nats.selectorLabels in helm/charts/nats/templates/_helpers.tpl). */
export const NATS_POD_LABELS = {
  'app.kubernetes.io/name': 'nats',
  'app.kubernetes.io/instance': RELEASE,
  'app.kubernetes.io/component': 'nats',
} as const;
/** Where a deployable finds the certificate authority of the servers' certificates. */
const CA_DIR = '/etc/nats-ca';
const CA_KEY = 'ca.crt';
/** Where the servers read their users (a Secret), and that file from the chart's config folder. */
const AUTH_DIR = '/etc/nats-auth';
const AUTH_KEY = 'auth.conf';
const AUTH_INCLUDE = `../nats-auth/${AUTH_KEY}`;

export interface NatsArgs {
  readonly namespace: pulumi.Input<string>;
  /** Each deployable's password: its NATS user's (natsAuthorization). */
  readonly passwords: pulumi.Output<Record<NatsDeployable, string>>;
}

/** How a deployable's pod reads the servers' certificate authority: a volume and its mount. */
export interface NatsCaFile {
  readonly volume: k8s.types.input.core.v1.Volume;
  readonly mountPath: string;
  /** NATS_TLS_CA_FILE. */
  readonly path: string;
}

/**
 * NATS with JetStream on persistent volumes (the nats-io chart), three servers clustered; TLS on
 * the client port and between the servers, with certificates from an authority of the
 * namespace's own (cert-manager: a self-signed Issuer signs the authority, whose CA Issuer signs
 * the servers' certificate); a user per deployable allowed only its own subjects
 * (natsAuthorization, in a Secret the servers include, so no password is in the chart's
 * ConfigMap).
 */
export class Nats extends pulumi.ComponentResource {
  readonly url: pulumi.Output<string>;
  /** How many servers can hold a copy of a stream: the services' JETSTREAM_REPLICAS. */
  readonly replicas = NATS_CLUSTER_SIZE;
  readonly caFile: NatsCaFile;
  readonly release: k8s.helm.v3.Release;

  constructor(name: string, args: NatsArgs, options?: pulumi.ComponentResourceOptions) {
    super('debate:platform:Nats', name, {}, options);
    const ns = args.namespace;
    const children = { parent: this };
    const issuerRef = (issuer: string) => ({
      group: 'cert-manager.io',
      kind: 'Issuer',
      name: issuer,
    });
    const certificate = (
      resource: string,
      spec: Record<string, unknown>,
      opts: pulumi.CustomResourceOptions = {},
    ) =>
      new k8s.apiextensions.CustomResource(
        resource,
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'Certificate',
          metadata: {
            name: resource,
            namespace: ns,
            annotations: { 'pulumi.com/waitFor': 'condition=Ready' },
          },
          spec: {
            secretName: resource,
            privateKey: { algorithm: 'ECDSA', size: 256, rotationPolicy: 'Always' },
            ...spec,
          },
        },
        { ...children, ...opts },
      );
    const issuer = (
      resource: string,
      spec: Record<string, unknown>,
      dependsOn: pulumi.Resource[],
    ) =>
      new k8s.apiextensions.CustomResource(
        resource,
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'Issuer',
          metadata: { name: resource, namespace: ns },
          spec,
        },
        { ...children, dependsOn },
      );

    // The namespace's own authority: the stack's ClusterIssuer may be ACME, which cannot sign
    // names inside the cluster. Ten years; the servers' certificate is renewed by cert-manager.
    const bootstrap = issuer(`${name}-selfsigned`, { selfSigned: {} }, []);
    const authority = certificate(
      `${name}-ca`,
      {
        isCA: true,
        commonName: 'debate NATS CA',
        duration: '87600h',
        issuerRef: issuerRef(`${name}-selfsigned`),
      },
      { dependsOn: [bootstrap] },
    );
    const caIssuer = issuer(`${name}-ca`, { ca: { secretName: `${name}-ca` } }, [authority]);
    // The servers' certificate: their client Service's names, and each server's name on the
    // headless Service (the routes, with the chart's useFQDN). Both ends of a route present it.
    const fqdn = pulumi.interpolate`${RELEASE}.${ns}.svc.cluster.local`;
    const tlsSecret = `${name}-tls`;
    const serverCertificate = certificate(
      tlsSecret,
      {
        commonName: fqdn,
        dnsNames: [
          RELEASE,
          pulumi.interpolate`${RELEASE}.${ns}`,
          pulumi.interpolate`${RELEASE}.${ns}.svc`,
          fqdn,
          pulumi.interpolate`*.${RELEASE}-headless.${ns}.svc.cluster.local`,
        ],
        usages: ['server auth', 'client auth', 'digital signature'],
        issuerRef: issuerRef(`${name}-ca`),
      },
      { dependsOn: [caIssuer] },
    );

    const auth = new k8s.core.v1.Secret(
      `${name}-auth`,
      {
        metadata: { name: `${name}-auth`, namespace: ns },
        type: 'Opaque',
        stringData: { [AUTH_KEY]: args.passwords.apply(natsAuthorization) },
      },
      children,
    );

    const tls = { enabled: true, secretName: tlsSecret };
    this.release = new k8s.helm.v3.Release(
      name,
      {
        name: RELEASE,
        chart: 'nats',
        version: '1.3.6',
        repositoryOpts: { repo: 'https://nats-io.github.io/k8s/helm/charts/' },
        namespace: ns,
        values: {
          config: {
            nats: { tls },
            cluster: {
              enabled: true,
              replicas: this.replicas,
              routeURLs: { useFQDN: true },
              tls,
              // The platform's cluster name, as compose's and the tests' servers have it (the
              // chart would name it after the StatefulSet). Each server's server_name is its
              // pod's name (the chart's $SERVER_NAME): nats-0, nats-1, nats-2.
              merge: { name: NATS_CLUSTER_NAME },
            },
            jetstream: { enabled: true, fileStore: { pvc: { size: '10Gi' } } },
            merge: {
              // The users, from the Secret (an include is relative to /etc/nats-config).
              $include: AUTH_INCLUDE,
              // A client whose node is lost (a dead pod still in its queue groups) dropped within
              // a minute, not nats-server's 2 minutes × 2: the clients' own pings.
              ping_interval: `${NATS_PING_INTERVAL_SECONDS}s`,
              ping_max: NATS_MAX_PINGS_OUT,
            },
          },
          // The authority every tls block verifies against: the routes' peers (the chart adds
          // ca_file to each block; the servers require and verify a route's certificate).
          tlsCA: { enabled: true, secretName: tlsSecret, key: CA_KEY },
          container: {
            patch: [
              {
                op: 'add',
                path: '/volumeMounts/-',
                value: { name: 'auth', mountPath: AUTH_DIR, readOnly: true },
              },
            ],
          },
          podTemplate: {
            patch: [
              {
                op: 'add',
                path: '/spec/volumes/-',
                value: { name: 'auth', secret: { secretName: auth.metadata.name } },
              },
            ],
          },
          // nats-box would connect with no user: the servers would refuse it.
          natsBox: { enabled: false },
        },
      },
      { ...children, dependsOn: [serverCertificate, auth] },
    );
    this.caFile = {
      volume: {
        name: 'nats-ca',
        secret: { secretName: tlsSecret, items: [{ key: CA_KEY, path: CA_KEY }] },
      },
      mountPath: CA_DIR,
      path: `${CA_DIR}/${CA_KEY}`,
    };
    // The chart names its client Service after the release (which contains "nats").
    this.url = pulumi.interpolate`nats://${this.release.status.name}.${ns}.svc.cluster.local:${NATS_CLIENT_PORT}`;
    this.registerOutputs({ url: this.url });
  }
}
