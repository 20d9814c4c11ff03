import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';

/** This machine's first network (non-loopback) IPv4 address, as `hostname -I` lists them. */
function networkAddress(): string | undefined {
  try {
    return execFileSync('hostname', ['-I'], { encoding: 'utf8' })
      .split(/\s+/)
      .find((address) => /^\d+\.\d+\.\d+\.\d+$/.test(address) && !address.startsWith('127.'));
  } catch {
    return undefined;
  }
}

const address = networkAddress();
// start:cluster's gateway listens on loopback only (scripts/e2e-cluster.mjs).
const cluster = process.env['E2E_PLATFORM'] === 'cluster';
const skipped = !address
  ? 'this machine has no network IPv4 address (hostname -I)'
  : cluster
    ? 'E2E_PLATFORM=cluster listens on loopback only'
    : undefined;
if (skipped) console.warn(`lan-session.e2e.ts skipped: ${skipped}`);

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

// `npm start` opened to the network (HOST=0.0.0.0) and tried from another device over plain
// HTTP: the browser keeps a Secure cookie only on HTTPS and loopback pages, so the session
// cookie must not be Secure there, and the header must follow what the gateway says.
(skipped ? describe.skip : describe)('signing in over plain HTTP at a network address', () => {
  const session = useBrowser({ host: () => address ?? '' });

  it('keeps the session across a reload', async () => {
    const { page } = session;
    expect(new URL(session.baseUrl).hostname).toBe(address);
    await signUp(page, 'lan@example.org');
    const profile = page.getByRole('region', { name: 'Profile' });
    await profile.getByText('lan@example.org').waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => [cookie.name, cookie.secure])).toEqual([
      ['debate_session', false],
    ]);

    await page.reload();
    // The profile comes from the gateway: the session was renewed from the kept cookie.
    await page.getByRole('region', { name: 'Profile' }).getByText('lan@example.org').waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    expect(await nav(page).getByRole('link', { name: 'Account' }).isVisible()).toBe(true);
    expect(await nav(page).getByRole('link', { name: 'Sign In' }).count()).toBe(0);
  });

  it('shows the visitor signed out after a reload once the session is gone', async () => {
    const { page } = session;
    await signUp(page, 'gone@example.org');
    await page.getByRole('region', { name: 'Profile' }).getByText('gone@example.org').waitFor();
    await page.context().clearCookies();

    await page.reload();
    // The remembered flag may show Account while the session loads; the gateway's answer wins.
    await page.waitForURL('**/login');
    await nav(page).getByRole('link', { name: 'Sign In' }).waitFor();
    expect(await nav(page).getByRole('link', { name: 'Account' }).count()).toBe(0);
    // Remembered for the next visit's first paint too.
    expect(await page.evaluate(() => window.localStorage.getItem('lastUserLoggedIn'))).toBe(
      'false',
    );
    await page.goto('/community/ranking');
    await nav(page).getByRole('link', { name: 'Sign In' }).waitFor();
  });
});
