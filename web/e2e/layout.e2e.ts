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
    [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      // The outermost first: the element that widens the page, then what it holds.
      .filter((element, _index, all) => !all.includes(element.parentElement as Element))
      .slice(0, 8)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().left)}+${Math.round(element.getBoundingClientRect().width)} px)`,
      ),
  );
  return `${left} px too wide (${culprits.join(', ')})`;
}

/**
 * The controls (links, buttons, fields) something else covers: first as the page opens,
 * unscrolled (a sticky or fixed bar over what is on screen), then each brought to the middle of
 * the screen (content over content). A control must be what is under its own centre (or inside
 * it).
 */
async function covered(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // Unscrolled: what a sticky bar covers once the page has scrolled under it is not covered.
    window.scrollTo(0, 0);
    const found: string[] = [];
    const controls = [
      ...document.querySelectorAll<HTMLElement>(
        'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])',
      ),
    ].filter((control) => !control.closest('[inert], dialog:not([open])'));
    /** What covers `control` where it is now, named with it; null when nothing does. */
    const coverOf = (control: HTMLElement, where: string): string | null => {
      const box = control.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!hit || control === hit || control.contains(hit) || hit.contains(control)) return null;
      const name = (control.getAttribute('aria-label') ?? control.textContent ?? '').trim();
      return `${control.tagName.toLowerCase()} '${name.slice(0, 40)}'${where} under ${hit.tagName.toLowerCase()}.${hit.className}`;
    };
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      if (box.width < 1 || box.height < 1 || box.top < 0 || box.bottom > window.innerHeight) {
        continue;
      }
      const cover = coverOf(control, ' on screen');
      if (cover) found.push(cover);
    }
    for (const control of controls) {
      const style = getComputedStyle(control);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      control.scrollIntoView({ block: 'center', inline: 'center' });
      const box = control.getBoundingClientRect();
      if (box.width < 1 || box.height < 1) continue;
      const cover = coverOf(control, '');
      if (cover) found.push(cover);
    }
    window.scrollTo(0, 0);
    return found;
  });
}

// Issue 25: every page fits a phone, signed out and signed in, with content on it, and nothing
// on it covers a control.
describe('every route on a phone', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('fits 360 and 390 px without scrolling sideways, nothing covering a control', async () => {
    const { page } = session;
    await signUp(page, `narrow-${Date.now()}@example.org`);
    await generateAndSave(page, 'Should every town keep a public workshop with shared tools?');
    const debatePath = await share(page, 0);
    const routes = [
      '/community/ranking',
      '/community/history',
      '/community/leaderboard',
      '/community/judges',
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
        // The rounds and cards open, where there are any: once the list has come (asking before
        // it has finds none to open). A card opened may close another (the history opens one at a
        // time), so each turn opens the first still closed, as many times as there were.
        await page.waitForLoadState('networkidle');
        const views = page.getByRole('button', { name: 'View Debate' });
        const closed = await views.count();
        for (let opened = 0; opened < closed; opened += 1) {
          await views.first().click();
          await page.getByRole('article', { name: 'Round 1 - First Speaker' }).first().waitFor();
        }
        const excess = await overflow(page);
        if (excess) wide.push(`${route} at ${width} px: ${excess}`);
        for (const control of await covered(page)) wide.push(`${route} at ${width} px: ${control}`);
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
        for (const control of await covered(page)) {
          wide.push(`${route} signed out at ${width} px: ${control}`);
        }
      }
    }
    expect(wide).toEqual([]);
  }, 120_000);

  it('keeps the engine’s topic under the navigation, on one line', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 390, height: 700 });
    await signUp(page, `sticky-${Date.now()}@example.org`);
    const topic = `Should ${'every city, town and village '.repeat(8)}keep a public workshop?`;
    await generateAndSave(page, topic);
    await page.locator('.turn').last().scrollIntoViewIfNeeded();
    const sticky = page.locator('.sticky-topic');
    await sticky.waitFor();
    const nav = await page.locator('header.nav-bar').boundingBox();
    const box = await sticky.boundingBox();
    // Below the bar, not over it; one line high; the rest of a long topic in an ellipsis.
    expect(box && nav && box.y >= nav.y + nav.height - 1).toBe(true);
    expect(box && box.height < 48).toBe(true);
    expect(await sticky.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(
      true,
    );
    expect(await sticky.getAttribute('title')).toBe(topic);
  }, 60_000);
});
