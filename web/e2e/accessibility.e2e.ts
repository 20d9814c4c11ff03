import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { desktop, phone, useBrowser } from './support/browser.js';

const pages = [
  '/community/ranking',
  '/community/history',
  '/community/judges',
  '/engine',
  '/history',
  '/about',
  '/login',
  '/account',
];

/** The serious and critical axe-core violations on the page as it is now, labelled. */
async function violations(page: Page, label: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${label}: ${violation.id} (${violation.impact}) ${violation.help}`);
}

describe('accessibility', () => {
  const session = useBrowser();

  it.each([
    ['desktop', desktop],
    ['phone', phone],
  ])('has no serious or critical axe-core violations on any page (%s)', async (_name, viewport) => {
    const page = await session.open(viewport);
    const found: string[] = [];
    for (const path of pages) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      found.push(...(await violations(page, path)));
    }
    expect(found).toEqual([]);
  });

  it('has none in dark mode either, which follows the browser', async () => {
    const page = await session.open(desktop);
    await page.emulateMedia({ colorScheme: 'dark' });
    const found: string[] = [];
    for (const path of pages) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      found.push(...(await violations(page, `${path} (dark)`)));
    }
    expect(found).toEqual([]);
    // The page is dark: its background, read back.
    expect(
      await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor),
    ).toBe('rgb(18, 19, 26)');
  });

  it('checks every About tab and the open phone menu too', async () => {
    const page = await session.open(phone);
    await page.goto('/about');
    const found: string[] = [];
    const check = async (label: string) => {
      found.push(...(await violations(page, label)));
    };
    for (const tab of ['The Science', 'The Backers']) {
      await page.getByRole('tab', { name: tab }).click();
      await check(tab);
    }
    await page.getByRole('button', { name: 'Open menu' }).click();
    await check('open menu');
    expect(found).toEqual([]);
  });

  it('checks the signed-in account page, its upgrade dialog, and a sign-in failure', async () => {
    const page = await session.open(desktop);
    const found: string[] = [];
    const check = async (label: string) => {
      found.push(...(await violations(page, label)));
    };
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody@example.org');
    await page.getByLabel('Password').fill('not a password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('alert').waitFor();
    await check('/login with an error');

    await page.getByRole('button', { name: 'Create one' }).click();
    await page.getByLabel('Email').fill('axe@example.org');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await page.waitForURL('**/account');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await check('/account');
    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.getByRole('dialog').waitFor();
    await check('upgrade dialog');
    expect(found).toEqual([]);
  });
});
