import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';

/** Every deployable's operations port: /health/live, /health/ready, /metrics. */
export const OPS_PORT = 9464;

export interface DeployableArgs {
  readonly namespace: pulumi.Input<string>;
  readonly image: pulumi.Input<string>;
  /** Plain settings (NATS_URL, LOG_LEVEL, …). */
  readonly env: Record<string, pulumi.Input<string>>;
  /** Secret settings: kept in a Kubernetes Secret, read by the pod from there, never inline. */
  readonly secretEnv: Record<string, pulumi.Input<string>>;
  /** Files the pod reads (read-only): a volume each, and where it is mounted. */
  readonly files?: ReadonlyArray<{
    readonly volume: k8s.types.input.core.v1.Volume;
    readonly mountPath: string;
  }>;
  /** The public HTTP port (the gateway's 3000); services have none. */
  readonly httpPort?: number;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /**
   * How long Kubernetes lets a stopping pod finish its work before killing it (default 30 s);
   * at least twice the deployable's DRAIN_TIMEOUT_MS plus a few seconds.
   */
  readonly terminationGracePeriodSeconds?: number;
  readonly resources?: {
    requests: { cpu: string; memory: string };
    limits: { cpu: string; memory: string };
  };
}

/** The annotations that have Prometheus scrape a pod's /metrics on `port`. */
export function scrapeAnnotations(port: number): Record<string, string> {
  return {
    'prometheus.io/scrape': 'true',
    'prometheus.io/port': String(port),
    'prometheus.io/path': '/metrics',
  };
}

/**
 * A pod's preference for a node none of its siblings (the pods `labels` select) runs on: the
 * scheduler spreads the replicas over the nodes when it can, so that losing one node loses one
 * replica; on a cluster with fewer nodes than replicas they still all run (preferred, not
 * required).
 */
export function spreadOverNodes(labels: Readonly<Record<string, string>>) {
  return {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 100,
          podAffinityTerm: {
            labelSelector: { matchLabels: { ...labels } },
            topologyKey: 'kubernetes.io/hostname',
          },
        },
      ],
    },
  };
}

/**
 * A PodDisruptionBudget for the pods `labels` select: a voluntary disruption (a node drained for
 * an upgrade, the cluster autoscaler removing a node) evicts one of them at a time, the next only
 * once its replacement is ready, so a deployable with replicas keeps serving through it. With
 * maxUnavailable rather than minAvailable, a drain is never blocked for good: it waits for one
 * replacement at a time, whatever the autoscaler has made of the count.
 */
export function disruptionBudget(
  name: string,
  namespace: pulumi.Input<string>,
  labels: Readonly<Record<string, string>>,
  options: pulumi.CustomResourceOptions,
): k8s.policy.v1.PodDisruptionBudget {
  return new k8s.policy.v1.PodDisruptionBudget(
    name,
    {
      metadata: { name, namespace, labels: { ...labels } },
      spec: { maxUnavailable: 1, selector: { matchLabels: { ...labels } } },
    },
    options,
  );
}

/**
 * One deployable (a service or the gateway) on Kubernetes: its Secret, a Deployment with
 * liveness and readiness probes on the operations port, requests and limits, a non-root and
 * read-only container; a Service; and a HorizontalPodAutoscaler on CPU. When it may run more than
 * one pod, its pods prefer nodes apart and a PodDisruptionBudget lets them be evicted one at a
 * time.
 */
export class Deployable extends pulumi.ComponentResource {
  readonly deployment: k8s.apps.v1.Deployment;
  readonly service: k8s.core.v1.Service;
  readonly autoscaler: k8s.autoscaling.v2.HorizontalPodAutoscaler;
  /** Only when it may run more than one pod (maxReplicas above 1). */
  readonly disruptionBudget: k8s.policy.v1.PodDisruptionBudget | undefined;
  readonly secret: k8s.core.v1.Secret;
  /** The in-cluster DNS name of the Service. */
  readonly host: pulumi.Output<string>;
  /** The labels of its pods. */
  readonly podLabels: Readonly<Record<string, string>>;

  constructor(name: string, args: DeployableArgs, options?: pulumi.ComponentResourceOptions) {
    super('debate:platform:Deployable', name, {}, options);
    // What the deployable needs first (NATS, MongoDB): a component's own dependsOn does not
    // hold back its children, so each is given it.
    const children = { parent: this, dependsOn: options?.dependsOn };
    const labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': 'debate' };
    this.podLabels = labels;
    const metadata = { name, namespace: args.namespace, labels };
    const replicated = args.maxReplicas > 1;
    const resources = args.resources ?? {
      requests: { cpu: '100m', memory: '192Mi' },
      limits: { cpu: '1', memory: '512Mi' },
    };

    this.secret = new k8s.core.v1.Secret(
      `${name}-env`,
      {
        metadata: { name: `${name}-env`, namespace: args.namespace, labels },
        type: 'Opaque',
        stringData: args.secretEnv,
      },
      children,
    );

    const probe = (path: string, periodSeconds: number) => ({
      httpGet: { path, port: 'ops' },
      periodSeconds,
      timeoutSeconds: 3,
      failureThreshold: 3,
    });
    this.deployment = new k8s.apps.v1.Deployment(
      name,
      {
        metadata,
        spec: {
          selector: { matchLabels: labels },
          template: {
            metadata: {
              labels,
              annotations: scrapeAnnotations(OPS_PORT),
            },
            spec: {
              automountServiceAccountToken: false,
              securityContext: {
                runAsNonRoot: true,
                runAsUser: 1000,
                runAsGroup: 1000,
                fsGroup: 1000,
                seccompProfile: { type: 'RuntimeDefault' },
              },
              terminationGracePeriodSeconds: args.terminationGracePeriodSeconds ?? 30,
              ...(replicated ? { affinity: spreadOverNodes(labels) } : {}),
              containers: [
                {
                  name,
                  image: args.image,
                  ports: [
                    { name: 'ops', containerPort: OPS_PORT },
                    ...(args.httpPort ? [{ name: 'http', containerPort: args.httpPort }] : []),
                  ],
                  env: [
                    ...Object.entries(args.env).map(([key, value]) => ({ name: key, value })),
                    { name: 'OPS_PORT', value: String(OPS_PORT) },
                  ],
                  envFrom: [{ secretRef: { name: this.secret.metadata.name } }],
                  startupProbe: { ...probe('/health/live', 5), failureThreshold: 24 },
                  livenessProbe: probe('/health/live', 10),
                  readinessProbe: probe('/health/ready', 5),
                  resources,
                  securityContext: {
                    allowPrivilegeEscalation: false,
                    readOnlyRootFilesystem: true,
                    capabilities: { drop: ['ALL'] },
                  },
                  // The one writable place (the embedded issuer's keys, if ever used).
                  volumeMounts: [
                    { name: 'data', mountPath: '/app/data' },
                    ...(args.files ?? []).map(({ volume, mountPath }) => ({
                      name: volume.name,
                      mountPath,
                      readOnly: true,
                    })),
                  ],
                },
              ],
              volumes: [{ name: 'data', emptyDir: {} }, ...(args.files ?? []).map((f) => f.volume)],
            },
          },
        },
      },
      children,
    );

    this.service = new k8s.core.v1.Service(
      name,
      {
        metadata,
        spec: {
          selector: labels,
          ports: [
            { name: 'ops', port: OPS_PORT, targetPort: 'ops' },
            ...(args.httpPort ? [{ name: 'http', port: args.httpPort, targetPort: 'http' }] : []),
          ],
        },
      },
      children,
    );

    this.autoscaler = new k8s.autoscaling.v2.HorizontalPodAutoscaler(
      name,
      {
        metadata,
        spec: {
          scaleTargetRef: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: this.deployment.metadata.name,
          },
          minReplicas: args.minReplicas,
          maxReplicas: args.maxReplicas,
          metrics: [
            {
              type: 'Resource',
              resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
            },
          ],
        },
      },
      children,
    );

    this.disruptionBudget = replicated
      ? disruptionBudget(name, args.namespace, labels, children)
      : undefined;

    this.host = pulumi.interpolate`${this.service.metadata.name}.${args.namespace}.svc.cluster.local`;
    this.registerOutputs({
      deployment: this.deployment.metadata.name,
      service: this.service.metadata.name,
      host: this.host,
    });
  }
}
