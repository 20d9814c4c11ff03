import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';

/** Pod labels a policy selects by (matchLabels). */
type Labels = Readonly<Record<string, string>>;

/** A port a flow is allowed on. */
interface FlowPort {
  readonly port: number;
  readonly protocol?: 'TCP' | 'UDP';
}

/**
 * One end of a flow: pods of the stack's namespace (a workload, by name), pods of another
 * namespace, or anywhere (any address outside the cluster, and any pod of any namespace: a model
 * server or a collector may be either).
 */
type FlowEnd =
  { readonly workload: string } | { readonly namespace: string } | { readonly anywhere: true };

/** Traffic allowed from one end to the other, on these ports (every port when omitted). */
export interface Flow {
  readonly from: FlowEnd;
  readonly to: FlowEnd;
  readonly ports?: readonly FlowPort[];
}

export interface NetworkPoliciesArgs {
  readonly namespace: pulumi.Input<string>;
  /** The stack's workloads by name: the labels of their pods. */
  readonly workloads: Readonly<Record<string, Labels>>;
  readonly flows: readonly Flow[];
}

const ANYWHERE: k8s.types.input.networking.v1.NetworkPolicyPeer[] = [
  { ipBlock: { cidr: '0.0.0.0/0' } },
  { ipBlock: { cidr: '::/0' } },
  { namespaceSelector: {} },
];

/** DNS, which every pod needs: to any address (node-local caches answer on the node's). */
const DNS_PORTS: readonly FlowPort[] = [
  { port: 53, protocol: 'UDP' },
  { port: 53, protocol: 'TCP' },
];

/**
 * The namespace's NetworkPolicies: everything denied (in and out) but DNS and the flows given,
 * each opened at both ends: a policy per workload lists what may reach it (ingress) and what it
 * may reach (egress). A workload no flow names gets no policy of its own, and so nothing but DNS.
 */
export class NetworkPolicies extends pulumi.ComponentResource {
  constructor(name: string, args: NetworkPoliciesArgs, options?: pulumi.ComponentResourceOptions) {
    super('debate:platform:NetworkPolicies', name, {}, options);
    const ns = args.namespace;
    const policy = (policyName: string, spec: k8s.types.input.networking.v1.NetworkPolicySpec) =>
      new k8s.networking.v1.NetworkPolicy(
        `${name}-${policyName}`,
        { metadata: { name: policyName, namespace: ns }, spec },
        { parent: this },
      );
    policy('default-deny', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    policy('dns', {
      podSelector: {},
      policyTypes: ['Egress'],
      egress: [{ ports: DNS_PORTS.map(portOf) }],
    });

    const labelsOf = (workload: string) => {
      const labels = args.workloads[workload];
      if (!labels) throw new Error(`a network flow names the unknown workload ${workload}`);
      return labels;
    };
    const peersOf = (end: FlowEnd): k8s.types.input.networking.v1.NetworkPolicyPeer[] => {
      if ('workload' in end)
        return [{ podSelector: { matchLabels: { ...labelsOf(end.workload) } } }];
      if ('namespace' in end) {
        return [
          {
            namespaceSelector: {
              matchLabels: { 'kubernetes.io/metadata.name': end.namespace },
            },
          },
        ];
      }
      return ANYWHERE;
    };
    const portsOf = (flow: Flow) => (flow.ports ? { ports: flow.ports.map(portOf) } : {});
    for (const workload of Object.keys(args.workloads)) {
      const ingress = args.flows
        .filter((flow) => 'workload' in flow.to && flow.to.workload === workload)
        .map((flow) => ({ from: peersOf(flow.from), ...portsOf(flow) }));
      const egress = args.flows
        .filter((flow) => 'workload' in flow.from && flow.from.workload === workload)
        .map((flow) => ({ to: peersOf(flow.to), ...portsOf(flow) }));
      if (ingress.length === 0 && egress.length === 0) continue;
      policy(workload, {
        podSelector: { matchLabels: { ...labelsOf(workload) } },
        policyTypes: [
          ...(ingress.length > 0 ? ['Ingress'] : []),
          ...(egress.length > 0 ? ['Egress'] : []),
        ],
        ...(ingress.length > 0 ? { ingress } : {}),
        ...(egress.length > 0 ? { egress } : {}),
      });
    }
    this.registerOutputs({});
  }
}

function portOf({ port, protocol = 'TCP' }: FlowPort) {
  return { port, protocol };
}

/** The port a URL's server listens on: its own, or its scheme's. */
export function portOfUrl(url: string): number {
  const parsed = new URL(url);
  if (parsed.port) return Number(parsed.port);
  return parsed.protocol === 'http:' ? 80 : 443;
}
