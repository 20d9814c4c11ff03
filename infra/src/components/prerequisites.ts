import * as k8s from '@pulumi/kubernetes';
import * as pulumi from '@pulumi/pulumi';
import { X509Certificate } from 'node:crypto';

/** The ingress controller's class (the Ingresses' annotations are ingress-nginx's). */
export const INGRESS_CLASS = 'nginx';
/** What metrics-server registers: the resource metrics the HorizontalPodAutoscalers read. */
const METRICS_API = 'v1beta1.metrics.k8s.io';

export interface ClusterPrerequisitesArgs {
  /** debate:tlsClusterIssuer: the cert-manager ClusterIssuer of the Ingress certificates. */
  readonly tlsClusterIssuer: string;
  /** debate:tlsCaCertificate: the PEM certificate of that issuer's authority, if set. */
  readonly tlsCaCertificate: string | undefined;
}

/** A cert-manager ClusterIssuer read from the cluster: its spec says how it signs. */
class ClusterIssuer extends k8s.apiextensions.CustomResource {
  declare readonly spec: pulumi.Output<unknown>;

  constructor(name: string, issuer: string, options: pulumi.CustomResourceOptions) {
    // A read (an id), with `spec` named so that Pulumi hands its value out.
    super(
      name,
      { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', spec: undefined },
      { ...options, id: issuer },
    );
  }
}

/**
 * What the program needs from the cluster and does not install, read (not created) so that a
 * missing one fails the preview, naming it, instead of a rollout waiting for it: the
 * ingress-nginx IngressClass, metrics-server's metrics API, and cert-manager's ClusterIssuer
 * (its CRD, and the issuer the stack names). The issuer also says which authority the Keycloak
 * provider must trust.
 */
export class ClusterPrerequisites extends pulumi.ComponentResource {
  /** The CA certificate (PEM) the Keycloak provider trusts; undefined: the system's roots. */
  readonly trustedCa: pulumi.Output<string | undefined>;

  constructor(
    name: string,
    args: ClusterPrerequisitesArgs,
    options?: pulumi.ComponentResourceOptions,
  ) {
    super('debate:platform:ClusterPrerequisites', name, {}, options);
    k8s.networking.v1.IngressClass.get(`${name}-ingress-nginx`, INGRESS_CLASS, { parent: this });
    k8s.apiregistration.v1.APIService.get(`${name}-metrics-server`, METRICS_API, {
      parent: this,
    });
    const issuer = new ClusterIssuer(`${name}-cert-manager-issuer`, args.tlsClusterIssuer, {
      parent: this,
    });
    this.trustedCa = issuer.spec.apply((spec) =>
      issuerAuthority(args.tlsClusterIssuer, spec, args.tlsCaCertificate),
    );
    this.registerOutputs({});
  }
}

/**
 * The authority to trust for certificates of the ClusterIssuer `issuer` (its `spec`): the
 * configured CA certificate; none (the system's roots) for an ACME issuer such as Let's
 * Encrypt. A self-signed issuer has no authority (each certificate is its own root), and any
 * other issuer needs debate:tlsCaCertificate: both are refused, naming what to change.
 */
export function issuerAuthority(
  issuer: string,
  spec: unknown,
  caCertificate: string | undefined,
): string | undefined {
  const kind = (key: string) => typeof spec === 'object' && spec !== null && key in spec;
  if (kind('selfSigned')) {
    throw new Error(
      `debate:tlsClusterIssuer "${issuer}" is a SelfSigned issuer: each certificate it signs is ` +
        'its own root, so there is no authority to trust. Name a CA issuer (see ' +
        'docs/deploy-kubernetes.md) and set debate:tlsCaCertificate to its certificate.',
    );
  }
  if (caCertificate === undefined) {
    if (kind('acme')) return undefined;
    throw new Error(
      `debate:tlsClusterIssuer "${issuer}" is not an ACME issuer: set debate:tlsCaCertificate ` +
        'to the PEM certificate of its authority.',
    );
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(caCertificate);
  } catch (error) {
    throw new Error(`debate:tlsCaCertificate is not a PEM certificate: ${String(error)}`, {
      cause: error,
    });
  }
  if (!certificate.ca) {
    throw new Error(
      `debate:tlsCaCertificate is not a certificate authority's (${certificate.subject}).`,
    );
  }
  return caCertificate;
}
