import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';
import { generateAndSave, share } from './support/debates.js';

const WIDTHS = [360, 390];

/**
 * How far the page is wider than the screen (0: it fits), once the route has settled: read again
 * for up to 5 s while it does not fit, so that a page caught mid-render under load is not blamed
 * for it (what stays too wide is), and named with the elements that stick out.
 */
async function overflow(page: Page): Promise<string | null> {
  await page.waitForLoadState('networkidle');
  const excess = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
  for (let attempt = 0; attempt < 10 && (await excess()) > 0; attempt += 1) {
    await page.waitForTimeout(500);
  }
  const left = await excess();
  if (left <= 0) return null;
  const culprits = await page.evaluate(() =>
    [...document.querySelectorAll('main *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(-3)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().width)} px)`,
      ),
  );
  return `${left} px too wide (${culprits.join(', ')})`;
}

// Issue 25: every page fits a phone, signed out and signed in, with content on it.
describe('every route on a phone', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('fits 360 and 390 px without scrolling sideways', async () => {
    const { page } = session;
    await signUp(page, 'narrow@example.org');
    await generateAndSave(page, 'Should every town keep a public workshop with shared tools?');
    const debatePath = await share(page, 0);
    const routes = [
      '/community/ranking',
      '/community/history',
      '/community/leaderboard',
      debatePath,
      '/engine',
      '/about',
      '/account',
      '/history',
      '/no-such-page',
    ];
    const wide: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const route of routes) {
        await page.goto(route);
        await page.locator('main').waitFor();
        // The rounds and cards open, where there are any.
        for (const view of await page.getByRole('button', { name: 'View Debate' }).all()) {
          await view.click();
          await page.getByRole('article', { name: 'Round 1 - First Speaker' }).first().waitFor();
        }
        const excess = await overflow(page);
        if (excess) wide.push(`${route} at ${width} px: ${excess}`);
      }
    }
    // Signed out: the login page and the ranking.
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const route of ['/login', '/community/ranking', debatePath]) {
        await page.goto(route);
        await page.locator('main').waitFor();
        const excess = await overflow(page);
        if (excess) wide.push(`${route} signed out at ${width} px: ${excess}`);
      }
    }
    expect(wide).toEqual([]);
  }, 120_000);
});
