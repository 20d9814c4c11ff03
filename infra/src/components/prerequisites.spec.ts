import { describe, expect, it } from '@jest/globals';
import { TEST_CA_CERTIFICATE, TEST_SERVER_CERTIFICATE } from '../testing/certificates.js';
import { issuerAuthority } from './prerequisites.js';

// ClusterIssuer specs as cert-manager's documentation writes them.
const acme = {
  acme: {
    server: 'https://acme-v02.api.letsencrypt.org/directory',
    privateKeySecretRef: { name: 'letsencrypt-account' },
    solvers: [{ http01: { ingress: { ingressClassName: 'nginx' } } }],
  },
};
const ca = { ca: { secretName: 'debate-ca' } };
const selfSigned = { selfSigned: {} };

describe(issuerAuthority.name, () => {
  it('trusts the system roots for an ACME issuer (Let’s Encrypt), and no other CA', () => {
    expect(issuerAuthority('letsencrypt', acme, undefined)).toBeUndefined();
  });

  it("trusts the configured authority's certificate for a CA issuer", () => {
    expect(issuerAuthority('debate-ca', ca, TEST_CA_CERTIFICATE)).toBe(TEST_CA_CERTIFICATE);
  });

  it('refuses a CA issuer whose certificate is not configured, naming the setting', () => {
    expect(() => issuerAuthority('debate-ca', ca, undefined)).toThrow(
      /"debate-ca" is not an ACME issuer: set debate:tlsCaCertificate/,
    );
  });

  it('refuses a self-signed issuer: its certificates share no authority', () => {
    expect(() => issuerAuthority('selfsigned', selfSigned, TEST_CA_CERTIFICATE)).toThrow(
      /"selfsigned" is a SelfSigned issuer/,
    );
  });

  it('refuses a configured certificate that is not a certificate authority', () => {
    expect(() => issuerAuthority('debate-ca', ca, TEST_SERVER_CERTIFICATE)).toThrow(
      /debate:tlsCaCertificate is not a certificate authority's \(CN=sso.example.org\)/,
    );
    expect(() => issuerAuthority('debate-ca', ca, 'not a certificate')).toThrow(
      /debate:tlsCaCertificate is not a PEM certificate/,
    );
  });
});
