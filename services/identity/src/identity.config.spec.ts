import { describe, expect, it } from '@jest/globals';
import {
  emailVerificationSummary,
  identityEnvSchema,
  mailSettingsFrom,
} from './identity.config.js';

const keycloak = { KEYCLOAK_URL: 'http://keycloak:8080', KEYCLOAK_CLIENT_SECRET: 'a'.repeat(16) };
const problems = (env: Record<string, string>) => {
  const parsed = identityEnvSchema.safeParse(env);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
};

describe('the identity service’s mail settings', () => {
  it('leaves verification off, and says so, without mail', () => {
    const env = identityEnvSchema.parse({});
    expect(env.EMAIL_VERIFICATION).toBe('off');
    expect(mailSettingsFrom(env)).toBeUndefined();
    expect(emailVerificationSummary(env)).toBe(
      'E-mail addresses are not verified: no mail is configured (EMAIL_VERIFICATION=off).',
    );
  });

  it('gives the embedded issuer its SMTP server, TLS as asked, and says where the mail goes', () => {
    const env = identityEnvSchema.parse({
      EMAIL_VERIFICATION: 'required',
      SMTP_HOST: 'mail.example.org',
      SMTP_PORT: '465',
      SMTP_FROM: 'debate@example.org',
      SMTP_USER: 'mailer',
      SMTP_PASSWORD: 'secret',
      SMTP_SSL: 'true',
    });
    expect(mailSettingsFrom(env)).toEqual({
      host: 'mail.example.org',
      port: 465,
      from: 'debate@example.org',
      fromDisplayName: 'AI Debate',
      user: 'mailer',
      password: 'secret',
      security: 'ssl',
    });
    expect(emailVerificationSummary(env)).toBe(
      'New e-mail accounts verify their address before their free debates (the realm mails the link through mail.example.org:465).',
    );
  });

  it('refuses settings that would send no mail, or send it from the wrong place', () => {
    // Verification with the embedded issuer and no SMTP server: nobody could follow a link.
    expect(problems({ EMAIL_VERIFICATION: 'required' })).toEqual(['SMTP_HOST']);
    // With Keycloak, Keycloak sends: no server is needed here, and none is taken.
    expect(problems({ ...keycloak, EMAIL_VERIFICATION: 'required' })).toEqual([]);
    expect(
      problems({ ...keycloak, SMTP_HOST: 'mail.example.org', SMTP_FROM: 'a@example.org' }),
    ).toEqual(['SMTP_HOST']);
    expect(problems({ SMTP_HOST: 'mail.example.org' })).toEqual(['SMTP_FROM']);
    expect(
      problems({ SMTP_HOST: 'm.example.org', SMTP_FROM: 'a@example.org', SMTP_PASSWORD: 'x' }),
    ).toEqual(['SMTP_USER']);
    expect(problems({ SMTP_STARTTLS: 'yes' })).toEqual(['SMTP_STARTTLS']);
  });
});
