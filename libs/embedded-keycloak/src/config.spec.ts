import { describe, expect, it } from '@jest/globals';
import { issuerEnvSchema, mailSettingsFrom } from './config.js';

const problems = (env: Record<string, string>) => {
  const parsed = issuerEnvSchema.safeParse(env);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
};

describe('the embedded issuer’s mail settings', () => {
  it('mails nothing without a server', () => {
    expect(mailSettingsFrom(issuerEnvSchema.parse({}))).toBeUndefined();
  });

  it('gives the issuer its SMTP server, with TLS as asked', () => {
    const env = issuerEnvSchema.parse({
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
  });

  it('refuses settings that would send no mail', () => {
    // Verification with the embedded issuer and no SMTP server: nobody could follow a link.
    expect(problems({ EMAIL_VERIFICATION: 'required' })).toEqual(['SMTP_HOST']);
    expect(problems({ SMTP_HOST: 'mail.example.org' })).toEqual(['SMTP_FROM']);
    expect(
      problems({ SMTP_HOST: 'm.example.org', SMTP_FROM: 'a@example.org', SMTP_PASSWORD: 'x' }),
    ).toEqual(['SMTP_USER']);
    expect(problems({ SMTP_STARTTLS: 'yes' })).toEqual(['SMTP_STARTTLS']);
  });
});

describe('the embedded issuer under NODE_ENV=production', () => {
  it('refuses to start, saying it stands in for Keycloak in development and tests', () => {
    const parsed = issuerEnvSchema.safeParse({ NODE_ENV: 'production' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({
        path: ['NODE_ENV'],
        message: expect.stringMatching(
          /embedded issuer is a development and test stand-in for Keycloak: production signs in with Keycloak/,
        ),
      }),
    ]);
    for (const nodeEnv of ['development', 'test', '']) {
      expect(issuerEnvSchema.safeParse({ NODE_ENV: nodeEnv }).success).toBe(true);
    }
  });
});
