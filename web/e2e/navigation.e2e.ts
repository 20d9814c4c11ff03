import { describe, expect, it } from '@jest/globals';
import { phone, useBrowser } from './support/browser.js';

describe('navigation', () => {
  const session = useBrowser();

  it('redirects / to the community ranking', async () => {
    const { page } = session;
    await page.goto('/');
    await page.waitForURL('**/community/ranking');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Community');
    expect(await page.title()).not.toBe('');
  });

  it('serves deep links through the history-API fallback', async () => {
    const { page } = session;
    const response = await page.goto('/about');
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'About' }).waitFor();
  });

  it('shows the desktop bar and highlights the community link on any /community path', async () => {
    const { page } = session;
    await page.goto('/community/history');
    const main = page.getByRole('navigation', { name: 'Main' });
    const community = main.getByRole('link', { name: 'Community', exact: true });
    expect(await community.getAttribute('aria-current')).toBe('page');
    expect(await main.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);

    await main.getByRole('link', { name: 'AI Engine' }).click();
    await page.waitForURL('**/engine');
    await page.getByRole('heading', { name: 'AI Debate Engine' }).waitFor(); // loaded on demand
    expect(await community.getAttribute('aria-current')).toBeNull();

    await main.getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL('**/login');

    await main.getByRole('link', { name: 'AI Debate home' }).click();
    await page.waitForURL('**/community/ranking');
  });

  it('on a 390 px phone, toggles the menu and closes it on an outside click or a link', async () => {
    const page = await session.open(phone);
    await page.goto('/about');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    expect(await toggle.isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'AI Engine' }).isVisible()).toBe(false);

    await toggle.click();
    const menu = page.locator('.nav-mobile');
    await menu.waitFor({ state: 'visible' });
    expect(await menu.getByRole('link').allTextContents()).toEqual([
      'Community',
      'Debate Engine',
      'About',
      'Sign In',
    ]);
    expect(
      await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded'),
    ).toBe('true');

    await page.getByRole('heading', { level: 1, name: 'About' }).click();
    await menu.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Debate Engine' }).click();
    await page.waitForURL('**/community/ranking');
    await menu.waitFor({ state: 'hidden' });
  });

  it('fits a 360 px wide screen without horizontal scrolling', async () => {
    const page = await session.open({ width: 360, height: 740 });
    for (const path of ['/community/ranking', '/about', '/engine', '/login', '/history']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
    }
  });
});
