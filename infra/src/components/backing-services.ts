import * as k8s from '@pulumi/kubernetes';
import * as mongodbatlas from '@pulumi/mongodbatlas';
import * as pulumi from '@pulumi/pulumi';
import { type ServiceName, serviceNames } from '../config.js';

/** NATS with JetStream on persistent volumes (the nats-io chart), three nodes clustered. */
export class Nats extends pulumi.ComponentResource {
  readonly url: pulumi.Output<string>;

  constructor(
    name: string,
    args: { namespace: pulumi.Input<string> },
    options?: pulumi.ComponentResourceOptions,
  ) {
    super('debate:platform:Nats', name, {}, options);
    const release = new k8s.helm.v3.Release(
      name,
      {
        chart: 'nats',
        version: '1.3.6',
        repositoryOpts: { repo: 'https://nats-io.github.io/k8s/helm/charts/' },
        namespace: args.namespace,
        values: {
          config: {
            cluster: { enabled: true, replicas: 3 },
            jetstream: { enabled: true, fileStore: { pvc: { size: '10Gi' } } },
          },
        },
      },
      { parent: this },
    );
    this.url = pulumi.interpolate`nats://${release.status.name}.${args.namespace}.svc.cluster.local:4222`;
    this.registerOutputs({ url: this.url });
  }
}

export interface MongoArgs {
  readonly namespace: pulumi.Input<string>;
  readonly rootPassword: pulumi.Input<string>;
  readonly servicePasswords: pulumi.Output<Record<ServiceName, string>>;
  /** MongoDB Atlas: the project and the cluster, when the stack uses it. */
  readonly atlas?: { projectId: string; clusterName: string } | undefined;
  /** Each service pod's most connections; the idle ones close after a minute. */
  readonly maxPoolSize: number;
}

/**
 * The documents: MongoDB in the cluster (the Bitnami chart, a database and a user per
 * service), or MongoDB Atlas (a database user per service on an existing cluster). Either way,
 * each service's connection URL, secret.
 */
export class Mongo extends pulumi.ComponentResource {
  readonly urls: Record<ServiceName, pulumi.Output<string>>;

  constructor(name: string, args: MongoArgs, options?: pulumi.ComponentResourceOptions) {
    super('debate:platform:Mongo', name, {}, options);
    const password = (service: ServiceName) =>
      args.servicePasswords.apply((all) => encodeURIComponent(all[service]));
    // The pool each pod keeps: at most maxPoolSize connections, the ones a burst opened closed
    // again after a minute idle (the driver keeps them for ever by default).
    const pool = `maxPoolSize=${args.maxPoolSize}&maxIdleTimeMS=60000`;
    if (args.atlas) {
      const { projectId, clusterName } = args.atlas;
      const cluster = mongodbatlas.getAdvancedClusterOutput(
        { projectId, name: clusterName },
        { parent: this },
      );
      // mongodb+srv://cluster0.example.mongodb.net: the host the users sign in to.
      const srvHost = cluster.connectionStrings.apply((strings) =>
        strings.standardSrv.replace(/^mongodb\+srv:\/\//, ''),
      );
      this.urls = Object.fromEntries(
        serviceNames.map((service) => {
          new mongodbatlas.DatabaseUser(
            `${name}-${service}`,
            {
              projectId,
              authDatabaseName: 'admin',
              username: `debate-${service}`,
              password: args.servicePasswords.apply((all) => all[service]),
              roles: [{ roleName: 'readWrite', databaseName: service }],
              scopes: [{ name: clusterName, type: 'CLUSTER' }],
            },
            { parent: this },
          );
          const url = pulumi.interpolate`mongodb+srv://debate-${service}:${password(service)}@${srvHost}/?authSource=admin&${pool}`;
          return [service, pulumi.secret(url)];
        }),
      ) as Record<ServiceName, pulumi.Output<string>>;
    } else {
      const release = new k8s.helm.v3.Release(
        name,
        {
          chart: 'oci://registry-1.docker.io/bitnamicharts/mongodb',
          version: '16.5.0',
          namespace: args.namespace,
          values: {
            architecture: 'replicaset',
            replicaCount: 3,
            auth: {
              rootPassword: args.rootPassword,
              usernames: [...serviceNames],
              databases: [...serviceNames],
              passwords: args.servicePasswords.apply((all) =>
                serviceNames.map((service) => all[service]),
              ),
            },
            persistence: { size: '20Gi' },
          },
        },
        { parent: this },
      );
      const host = pulumi.interpolate`${release.status.name}-headless.${args.namespace}.svc.cluster.local`;
      this.urls = Object.fromEntries(
        serviceNames.map((service) => [
          service,
          pulumi.secret(
            pulumi.interpolate`mongodb://${service}:${password(service)}@${host}:27017/?authSource=${service}&replicaSet=rs0&${pool}`,
          ),
        ]),
      ) as Record<ServiceName, pulumi.Output<string>>;
    }
    this.registerOutputs({});
  }
}

export interface KeycloakServerArgs {
  readonly namespace: pulumi.Input<string>;
  readonly host: string;
  readonly tlsClusterIssuer: string;
  readonly adminPassword: pulumi.Input<string>;
  readonly dbPassword: pulumi.Input<string>;
}

/** Keycloak (the Bitnami chart, its own PostgreSQL) behind its own TLS Ingress. */
export class KeycloakServer extends pulumi.ComponentResource {
  /** As the services reach it, and as browsers do. */
  readonly internalUrl: pulumi.Output<string>;
  readonly publicUrl: string;

  constructor(name: string, args: KeycloakServerArgs, options?: pulumi.ComponentResourceOptions) {
    super('debate:platform:KeycloakServer', name, {}, options);
    const release = new k8s.helm.v3.Release(
      name,
      {
        chart: 'oci://registry-1.docker.io/bitnamicharts/keycloak',
        version: '24.7.3',
        namespace: args.namespace,
        values: {
          auth: { adminUser: 'admin', adminPassword: args.adminPassword },
          production: true,
          proxyHeaders: 'xforwarded',
          postgresql: { enabled: true, auth: { password: args.dbPassword } },
          ingress: {
            enabled: true,
            hostname: args.host,
            tls: true,
            annotations: { 'cert-manager.io/cluster-issuer': args.tlsClusterIssuer },
          },
          extraEnvVars: [
            { name: 'KC_HOSTNAME', value: `https://${args.host}` },
            { name: 'KC_HOSTNAME_BACKCHANNEL_DYNAMIC', value: 'true' },
          ],
        },
      },
      { parent: this },
    );
    this.internalUrl = pulumi.interpolate`http://${release.status.name}.${args.namespace}.svc.cluster.local`;
    this.publicUrl = `https://${args.host}`;
    this.registerOutputs({ internalUrl: this.internalUrl, publicUrl: this.publicUrl });
  }
}
