import { type FakeProviders, startFakeProviders } from '@debate/embedded-keycloak/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { useBrowser } from './support/browser.js';

// Sign-in with Google and GitHub through the realm's authorization-code flow, the browser
// going to the provider (a local fake of Google's OpenID Connect and GitHub's OAuth) and back.
describe('signing in with Google or GitHub', () => {
  let providers: FakeProviders;
  beforeAll(async () => {
    providers = await startFakeProviders();
  });
  // Google's OAuth app is configured; GitHub's is not.
  const session = useBrowser({
    env: () => ({ ...providers.env(), GITHUB_CLIENT_ID: '', GITHUB_CLIENT_SECRET: '' }),
  });
  afterAll(async () => {
    await providers?.close();
  });

  it('goes to Google and comes back signed in, on /account', async () => {
    const { page } = session;
    await page.goto('/login');
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL('**/account');
    await page.getByRole('region', { name: 'Profile' }).getByText('grace@gmail.example').waitFor();
    // Through the realm's /auth endpoint and the provider, back to /login with a code.
    expect(visited).toContain('/login');
    expect(providers.google.redeemed.length).toBeGreaterThanOrEqual(1);
    expect(new URL(page.url()).search).toBe('');
    await page.reload();
    await page.getByRole('region', { name: 'Profile' }).getByText('grace@gmail.example').waitFor();
  });

  it('offers Google, not GitHub whose OAuth app is not configured', async () => {
    const { page } = session;
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign in with GitHub' }).count()).toBe(0);
  });

  it('shows a failed way back from a provider on a page that leads to the sign-in', async () => {
    const { page } = session;
    // A provider's answer for a sign-in the realm never started (an old tab, a forged link).
    await page.goto('/auth/realms/debate/broker/google/endpoint?code=x&state=forged');
    await page.getByRole('heading', { name: 'We are sorry...' }).waitFor();
    await page.getByRole('link', { name: 'Back to Application' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  });

  it("says 'Failed to sign in with Google' when the person declines at Google", async () => {
    const { page } = session;
    const account = providers.google.account;
    providers.google.account = null;
    try {
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      const alert = page.getByRole('alert');
      await alert.getByText('Failed to sign in with Google', { exact: true }).waitFor();
      expect(await alert.textContent()).toMatch(/Google did not sign you in/);
    } finally {
      providers.google.account = account;
    }
  });
});
