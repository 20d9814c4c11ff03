import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { useBrowser } from './support/browser.js';

const PASSWORD = 'a long enough password';

async function fillCredentials(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
}

async function createAccount(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Create one' }).click();
  await page.getByRole('heading', { level: 1, name: 'Create Account' }).waitFor();
  await fillCredentials(page, email, password);
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
  await fillCredentials(page, email, password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

const errorBox = (page: Page) => page.getByRole('alert');
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

describe('signing in', () => {
  const session = useBrowser();

  it('creates an account, lands on /account, and keeps the session across a reload', async () => {
    const { page } = session;
    await createAccount(page, 'ada@example.org');
    await page.waitForURL('**/account');
    const profile = page.getByRole('region', { name: 'Profile' });
    await profile.getByText('ada@example.org').waitFor();
    expect(await profile.getByText('Free Plan').isVisible()).toBe(true);
    await nav(page).getByRole('link', { name: 'Account' }).waitFor();

    // Only the remembered flag is in local storage; the refresh token is an httpOnly cookie.
    const storage = await page.evaluate(() => ({ ...window.localStorage }));
    expect(storage).toEqual({ lastUserLoggedIn: 'true' });
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => cookie.name)).toEqual(['debate_session']);
    // Not Secure over plain HTTP outside production (lan-session.e2e.ts: kept on any host).
    expect(cookies[0]).toMatchObject({ httpOnly: true, secure: false, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe('');

    await page.reload();
    await page.getByRole('region', { name: 'Profile' }).getByText('ada@example.org').waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
  });

  it('signs out to /login, and then /account and /history send the visitor to /login', async () => {
    const { page } = session;
    await createAccount(page, 'bo@example.org');
    await page.waitForURL('**/account');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL('**/login');
    await nav(page).getByRole('link', { name: 'Sign In' }).waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('lastUserLoggedIn'))).toBe(
      'false',
    );
    for (const guarded of ['/account', '/history']) {
      await page.goto(guarded);
      await page.waitForURL('**/login');
    }
  });

  it('signs in with e-mail and password, and an already signed-in user skips /login', async () => {
    const { page } = session;
    await createAccount(page, 'cy@example.org');
    await page.waitForURL('**/account');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL('**/login');

    await signIn(page, 'cy@example.org', PASSWORD);
    await page.waitForURL('**/account');
    await page.getByRole('region', { name: 'Profile' }).getByText('cy@example.org').waitFor();

    await page.goto('/login');
    await page.waitForURL('**/account');
  });

  it('shows a wrong password in a red box, with every button disabled while it is checked', async () => {
    const { page } = session;
    await createAccount(page, 'di@example.org');
    await page.waitForURL('**/account');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL('**/login');

    // Hold the sign-in request until the buttons have been looked at.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/graphql', async (route) => {
      if (route.request().postData()?.includes('signIn(')) await held;
      await route.continue();
    });
    await fillCredentials(page, 'di@example.org', 'not the password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    for (const name of ['Sign In', 'Create one']) {
      expect(await page.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
    }
    // Neither Google's nor GitHub's OAuth app is configured here: neither is offered.
    expect(await page.getByRole('button', { name: /^Sign in with/ }).count()).toBe(0);
    release();
    await errorBox(page).getByText('Invalid user credentials').waitFor();
    const color = await errorBox(page).evaluate((box) => getComputedStyle(box).color);
    expect(color).toBe('rgb(179, 38, 30)');
    expect(await page.getByRole('button', { name: 'Sign In', exact: true }).isEnabled()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('locks the account after repeated failures, even for the right password', async () => {
    const { page } = session;
    await createAccount(page, 'ed@example.org');
    await page.waitForURL('**/account');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL('**/login');

    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await fillCredentials(page, 'ed@example.org', `wrong guess ${attempt}`);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await errorBox(page).getByText('Invalid user credentials').waitFor();
      await page.getByRole('button', { name: 'Sign In', exact: true }).isEnabled();
    }
    await fillCredentials(page, 'ed@example.org', PASSWORD);
    // As Keycloak answers: a locked account's right password is refused like a wrong one.
    const answered = page.waitForResponse(
      (response) =>
        response.url().endsWith('/graphql') &&
        (response.request().postData() ?? '').includes('signIn'),
    );
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const answer = (await (await answered).json()) as { errors?: Array<{ message: string }> };
    expect(answer.errors?.[0]?.message).toBe('Invalid user credentials');
    await errorBox(page).getByText('Invalid user credentials').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it("refuses a password the realm's policy rejects, with the realm's message", async () => {
    const { page } = session;
    await createAccount(page, 'fa@example.org', 'tiny7');
    await errorBox(page).getByText('Invalid password: minimum length 8.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it("refuses one of the 10,000 most common passwords, with the realm's message", async () => {
    const { page } = session;
    await createAccount(page, 'fb@example.org', 'Password1');
    await errorBox(page).getByText('Invalid password: password is not allowed.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('says honestly that PRO cannot be bought yet', async () => {
    const { page } = session;
    await createAccount(page, 'gu@example.org');
    await page.waitForURL('**/account');
    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro' });
    await dialog.getByText('PRO accounts are not on sale yet', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByText('Free Plan').isVisible()).toBe(true);
  });
});
