import { describe, expect, it } from '@jest/globals';
import {
  emailVerificationSummary,
  identityEnvSchema,
  keycloakSettings,
} from './identity.config.js';

const keycloak = { KEYCLOAK_URL: 'http://keycloak:8080', KEYCLOAK_CLIENT_SECRET: 'a'.repeat(16) };
const problems = (env: Record<string, string>) => {
  const parsed = identityEnvSchema.safeParse(env);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
};

describe('the identity service’s settings', () => {
  it('signs in with the Keycloak it is given, and refuses to start without one', () => {
    expect(problems({})).toEqual(['KEYCLOAK_URL', 'KEYCLOAK_CLIENT_SECRET']);
    expect(problems({ ...keycloak, KEYCLOAK_CLIENT_SECRET: 'short' })).toEqual([
      'KEYCLOAK_CLIENT_SECRET',
    ]);
    const env = identityEnvSchema.parse({
      ...keycloak,
      KEYCLOAK_PUBLIC_URL: 'https://sso.example.org',
    });
    expect(keycloakSettings(env)).toEqual({
      baseUrl: 'http://keycloak:8080',
      publicBaseUrl: 'https://sso.example.org',
      realm: 'debate',
      webClientId: 'debate-web',
      serviceClientId: 'identity-service',
      serviceSecret: 'a'.repeat(16),
    });
  });

  it('leaves verification off, and says so, unless the deployment has mail', () => {
    const env = identityEnvSchema.parse(keycloak);
    expect(env.EMAIL_VERIFICATION).toBe('off');
    expect(emailVerificationSummary(env.EMAIL_VERIFICATION)).toBe(
      'E-mail addresses are not verified: no mail is configured (EMAIL_VERIFICATION=off).',
    );
    // With Keycloak, Keycloak sends the mail: the service needs no mail server of its own.
    const required = identityEnvSchema.parse({ ...keycloak, EMAIL_VERIFICATION: 'required' });
    expect(emailVerificationSummary(required.EMAIL_VERIFICATION)).toBe(
      'New e-mail accounts verify their address before their free debates (the realm mails the link).',
    );
    expect(emailVerificationSummary('required', { host: 'mail.example.org', port: 465 })).toBe(
      'New e-mail accounts verify their address before their free debates (the realm mails the link through mail.example.org:465).',
    );
    expect(problems({ ...keycloak, EMAIL_VERIFICATION: 'sometimes' })).toEqual([
      'EMAIL_VERIFICATION',
    ]);
  });
});
