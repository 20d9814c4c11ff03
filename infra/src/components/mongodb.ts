import * as k8s from '@pulumi/kubernetes';
import * as mongodbatlas from '@pulumi/mongodbatlas';
import * as pulumi from '@pulumi/pulumi';
import { type ServiceName, serviceNames } from '../config.js';

export interface MongoArgs {
  readonly namespace: pulumi.Input<string>;
  /** The password of `admin` (the root role), for operators; no service uses it. */
  readonly rootPassword: pulumi.Input<string>;
  readonly servicePasswords: pulumi.Output<Record<ServiceName, string>>;
  /** MongoDB Atlas: the project and the cluster, when the stack uses it. */
  readonly atlas?: { projectId: string; clusterName: string } | undefined;
  /** Each service pod's most connections; the idle ones close after a minute. */
  readonly maxPoolSize: number;
}

/**
 * MongoDB Controllers for Kubernetes (MongoDB's own operator, which reconciles MongoDBCommunity
 * resources), installed into the namespace and watching it alone: its cluster-wide objects are
 * either named after the namespace or left out (telemetry, ClusterMongoDBRole), which is meant
 * to let two stacks share a cluster. Its CRDs are in the chart's crds/ folder, which Helm
 * installs once and skips when they exist.
 */
const MONGODB_OPERATOR = {
  chart: 'mongodb-kubernetes',
  version: '1.10.0',
  repo: 'https://mongodb.github.io/helm-charts',
};
/** The server the replica set runs (the operator's quay.io/mongodb/mongodb-community-server). */
const MONGODB_VERSION = '8.0.12';
const MONGODB_MEMBERS = 3;
export const MONGODB_PORT = 27017;

/**
 * The documents: a three-member MongoDB replica set in the cluster (a MongoDBCommunity
 * resource, a database and a user per service), or MongoDB Atlas (a database user per service
 * on an existing cluster). Either way, each service's connection URL, secret.
 */
export class Mongo extends pulumi.ComponentResource {
  readonly urls: Record<ServiceName, pulumi.Output<string>>;
  /** In the cluster, the labels of the replica set's pods and of the operator's; else none. */
  readonly podLabels: Readonly<Record<string, string>> | undefined;
  readonly operatorPodLabels: Readonly<Record<string, string>> | undefined;

  constructor(name: string, args: MongoArgs, options?: pulumi.ComponentResourceOptions) {
    super('debate:platform:Mongo', name, {}, options);
    // In the user part of a URL, a password's reserved characters (@ : / ? # % …) must be
    // percent-encoded, or the driver reads another host, user or database out of it.
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
      this.podLabels = undefined;
      this.operatorPodLabels = undefined;
    } else {
      const operator = new k8s.helm.v3.Release(
        `${name}-operator`,
        {
          chart: MONGODB_OPERATOR.chart,
          version: MONGODB_OPERATOR.version,
          repositoryOpts: { repo: MONGODB_OPERATOR.repo },
          namespace: args.namespace,
          values: {
            operator: {
              watchedResources: ['mongodbcommunity'],
              enableClusterMongoDBRoles: false,
              telemetry: { enabled: false },
              webhook: { name: pulumi.interpolate`mdbpolicy.${args.namespace}.mongodb.com` },
            },
          },
        },
        { parent: this },
      );
      const passwords = new k8s.core.v1.Secret(
        `${name}-passwords`,
        {
          metadata: { name: `${name}-passwords`, namespace: args.namespace },
          type: 'Opaque',
          stringData: pulumi
            .all([args.rootPassword, args.servicePasswords])
            .apply(([root, services]) => ({ admin: root, ...services })),
        },
        { parent: this },
      );
      const user = (username: string, db: string, roles: Array<{ name: string; db: string }>) => ({
        name: username,
        db,
        passwordSecretRef: { name: passwords.metadata.name, key: username },
        roles,
        // The operator keeps the user's SCRAM credentials in <this>-scram-credentials.
        scramCredentialsSecretName: `${name}-${username}`,
      });
      const replicaSet = new k8s.apiextensions.CustomResource(
        name,
        {
          apiVersion: 'mongodbcommunity.mongodb.com/v1',
          kind: 'MongoDBCommunity',
          metadata: {
            name,
            namespace: args.namespace,
            // Pulumi waits for the replica set to run (its users made) before the services.
            annotations: { 'pulumi.com/waitFor': 'jsonpath={.status.phase}=Running' },
          },
          spec: {
            members: MONGODB_MEMBERS,
            type: 'ReplicaSet',
            version: MONGODB_VERSION,
            security: { authentication: { modes: ['SCRAM'] } },
            users: [
              user('admin', 'admin', [{ name: 'root', db: 'admin' }]),
              ...serviceNames.map((service) =>
                user(service, service, [{ name: 'readWrite', db: service }]),
              ),
            ],
            statefulSet: {
              spec: {
                template: {
                  spec: {
                    containers: [
                      {
                        name: 'mongod',
                        resources: {
                          requests: { cpu: '500m', memory: '1Gi' },
                          limits: { cpu: '2', memory: '2Gi' },
                        },
                      },
                    ],
                  },
                },
                volumeClaimTemplates: [
                  {
                    metadata: { name: 'data-volume' },
                    spec: {
                      accessModes: ['ReadWriteOnce'],
                      resources: { requests: { storage: '20Gi' } },
                    },
                  },
                ],
              },
            },
          },
        },
        { parent: this, dependsOn: [operator, passwords] },
      );
      // The operator's pod (helm_chart/templates/operator.yaml, operator.name's default), and the
      // replica set's (`app: <ServiceName>`, construct/mongodbstatefulset.go).
      this.operatorPodLabels = { 'app.kubernetes.io/name': 'mongodb-kubernetes-operator' };
      this.podLabels = { app: `${name}-svc` };
      // The operator's names (mongodb-community-operator/api/v1/mongodbcommunity_types.go):
      // the replica set is the resource's name, its members the pods <name>-<i> of the
      // StatefulSet <name>, found through the headless Service <name>-svc.
      const members = pulumi
        .all([replicaSet.metadata.name, args.namespace])
        .apply(([setName, namespace]) =>
          Array.from(
            { length: MONGODB_MEMBERS },
            (_, i) =>
              `${setName}-${i}.${setName}-svc.${namespace}.svc.cluster.local:${MONGODB_PORT}`,
          ).join(','),
        );
      this.urls = Object.fromEntries(
        serviceNames.map((service) => [
          service,
          pulumi.secret(
            pulumi.interpolate`mongodb://${service}:${password(service)}@${members}/?authSource=${service}&replicaSet=${replicaSet.metadata.name}&${pool}`,
          ),
        ]),
      ) as Record<ServiceName, pulumi.Output<string>>;
    }
    this.registerOutputs({});
  }
}
