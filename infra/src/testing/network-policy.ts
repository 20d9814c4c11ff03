// What Kubernetes' NetworkPolicies allow, read as the API documents them
// (https://kubernetes.io/docs/concepts/services-networking/network-policies/): a pod selected by
// no policy of a direction is open in that direction; a pod selected by some is open only to what
// one of their rules allows; a connection needs its source's egress and its destination's
// ingress. Only what the program writes is modelled (matchLabels, numeric ports, ipBlock without
// exceptions): anything else throws, rather than being read wrongly.

/** A pod of the modelled cluster, or an address outside it (a model server, the API server). */
export interface Endpoint {
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  /** Outside the cluster: no namespace, no labels, matched by ipBlock only. */
  readonly outside?: true;
}

interface Selector {
  readonly matchLabels?: Record<string, string>;
  readonly matchExpressions?: unknown;
}
interface Peer {
  readonly podSelector?: Selector;
  readonly namespaceSelector?: Selector;
  readonly ipBlock?: { readonly cidr: string; readonly except?: unknown };
}
interface Rule {
  readonly from?: readonly Peer[];
  readonly to?: readonly Peer[];
  readonly ports?: ReadonlyArray<{ readonly port?: unknown; readonly protocol?: string }>;
}
/** A NetworkPolicy as declared: its namespace, and its spec. */
export interface Policy {
  readonly namespace: string;
  readonly spec: {
    readonly podSelector: Selector;
    readonly policyTypes?: readonly string[];
    readonly ingress?: readonly Rule[];
    readonly egress?: readonly Rule[];
  };
}

function selects(selector: Selector | undefined, labels: Readonly<Record<string, string>>) {
  if (selector?.matchExpressions) throw new Error('matchExpressions are not modelled');
  return Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
}

/** Whether `peer`, in a policy of `namespace`, is `endpoint`. */
function peerMatches(peer: Peer, namespace: string, endpoint: Endpoint): boolean {
  if (peer.ipBlock) {
    if (peer.ipBlock.except) throw new Error('ipBlock.except is not modelled');
    return endpoint.outside === true && ['0.0.0.0/0', '::/0'].includes(peer.ipBlock.cidr);
  }
  if (endpoint.outside) return false;
  const inNamespace = peer.namespaceSelector
    ? selects(peer.namespaceSelector, {
        'kubernetes.io/metadata.name': endpoint.namespace ?? '',
      })
    : endpoint.namespace === namespace;
  return inNamespace && selects(peer.podSelector, endpoint.labels ?? {});
}

function ruleAllows(
  rule: Rule,
  peers: readonly Peer[] | undefined,
  namespace: string,
  other: Endpoint,
  port: number,
  protocol: string,
) {
  const portOk =
    !rule.ports ||
    rule.ports.length === 0 ||
    rule.ports.some((entry) => {
      if (entry.port !== undefined && typeof entry.port !== 'number') {
        throw new Error(`named ports are not modelled (${String(entry.port)})`);
      }
      return (
        (entry.port === undefined || entry.port === port) && (entry.protocol ?? 'TCP') === protocol
      );
    });
  const peerOk =
    !peers || peers.length === 0 || peers.some((peer) => peerMatches(peer, namespace, other));
  return portOk && peerOk;
}

/** Whether `policies` let `from` open a connection to `to` on `port`. */
export function allows(
  policies: readonly Policy[],
  from: Endpoint,
  to: Endpoint,
  port: number,
  protocol: 'TCP' | 'UDP' = 'TCP',
): boolean {
  const side = (pod: Endpoint, type: 'Ingress' | 'Egress', other: Endpoint) => {
    if (pod.outside) return true;
    const applying = policies.filter(
      (policy) =>
        policy.namespace === pod.namespace &&
        selects(policy.spec.podSelector, pod.labels ?? {}) &&
        (
          policy.spec.policyTypes ?? ['Ingress', ...(policy.spec.egress ? ['Egress'] : [])]
        ).includes(type),
    );
    if (applying.length === 0) return true;
    return applying.some((policy) =>
      (type === 'Ingress' ? policy.spec.ingress : policy.spec.egress)?.some((rule) =>
        ruleAllows(
          rule,
          type === 'Ingress' ? rule.from : rule.to,
          policy.namespace,
          other,
          port,
          protocol,
        ),
      ),
    );
  };
  return side(from, 'Egress', to) && side(to, 'Ingress', from);
}
