import { verificationLink, waitForMail } from '@debate/embedded-keycloak/testing';
import { describe, expect, it } from '@jest/globals';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';

const TOPIC = 'Should every town keep a public library?';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the e2e tier's global setup sets it`);
  return value;
}

// `npm start` with mail configured (its embedded issuer mailing through this tier's Mailpit).
describe('a verified e-mail address before the free debates', () => {
  const session = useBrowser({
    env: () => ({
      EMAIL_VERIFICATION: 'required',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: env('MAILPIT_TEST_SMTP_PORT'),
      SMTP_FROM: 'debate@example.org',
      OFFLINE_TOKENS_PER_SECOND: '200',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('says why a new account cannot begin yet, mails the link again, and after the link lets it begin', async () => {
    const { page } = session;
    const email = `reader-${Date.now()}@example.org`;
    await signUp(page, email);

    await page.goto('/engine');
    const notice = page.getByRole('region', { name: 'Verify your e-mail address' });
    await notice.getByText(email).waitFor();
    await page.getByLabel('Debate topic').fill(TOPIC);
    await page.getByRole('button', { name: 'Begin discussion' }).click();
    await page
      .getByRole('alert')
      .getByText(
        `Verify your e-mail address to start a debate: follow the link in the mail we sent to ${email}.`,
      )
      .waitFor();

    await notice.getByRole('button', { name: 'Send the mail again' }).click();
    await notice.getByText('Sent. Check your inbox, then follow the link in the mail.').waitFor();
    const mails = await waitForMail(env('MAILPIT_TEST_URL'), email, 2);
    expect(mails.map((mail) => mail.Subject)).toEqual(['Verify email', 'Verify email']);

    // The link, as the reader's browser follows it: the realm's pages, then back to /engine.
    const [newest] = mails;
    if (!newest) throw new Error('no mail');
    await page.goto(verificationLink(newest));
    await page.getByRole('link', { name: /Click here to proceed/ }).click();
    await page.getByText('Your account has been updated.').waitFor();
    await page.getByRole('link', { name: /Back to Application/ }).click();
    await page.waitForURL('**/engine');

    await page.getByLabel('Debate topic').fill(TOPIC);
    await page.getByRole('button', { name: 'Begin discussion' }).click();
    await page.getByRole('heading', { name: 'Save Your Debate' }).waitFor({ timeout: 30_000 });
    expect(await notice.count()).toBe(0);
  });
});
