import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { useBrowser } from './support/browser.js';

/** A short window: the forum's five example debates run well below its fold. */
const short = { width: 1280, height: 500 };

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

/** The forum with the five example debates (shared as the platform starts, by events). */
async function openForum(page: Page): Promise<void> {
  const cards = page.locator('.debate-card');
  for (let attempt = 0; attempt < 40; attempt += 1) {
    await page.goto('/community/ranking');
    await page.locator('.debate-card, .empty-state').first().waitFor();
    if ((await cards.count()) === 5) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`The forum shows ${await cards.count()} debates, not the 5 examples`);
}

const firstRound = (page: Page) =>
  page.getByRole('heading', { name: 'Round 1: Constructive Arguments' });

describe('the scroll on a change of page', () => {
  const session = useBrowser({ env: () => ({ SEED_EXAMPLES: 'true' }) });

  it("opens a debate at its top; Back, and a reload, return to the reader's place", async () => {
    const page = await session.open(short);
    await openForum(page);
    const title = page.locator('.debate-card').last().getByRole('link').first();
    await title.scrollIntoViewIfNeeded();
    const inForum = await scrollY(page);
    // Far enough down that keeping it would land the debate's page well below its top.
    expect(inForum).toBeGreaterThan(1000);
    const topic = await title.innerText();

    await title.click();
    await page.waitForURL('**/community/debate/**');
    await firstRound(page).waitFor();
    await page.getByRole('heading', { level: 1, name: topic }).waitFor();
    expect(await scrollY(page)).toBe(0);
    // Tall enough that the old place would have fitted: the top is the app's doing.
    const debateHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(debateHeight - short.height).toBeGreaterThan(inForum);

    await page.goBack();
    await page.waitForURL('**/community/ranking');
    await page.locator('.debate-card').nth(4).waitFor();
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 3, inForum);
    // A reload of the entry comes back to the same place.
    await page.reload();
    await page.locator('.debate-card').nth(4).waitFor();
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 3, inForum);

    await page.goForward();
    await page.waitForURL('**/community/debate/**');
    await firstRound(page).waitFor();
    expect(await scrollY(page)).toBe(0);
  });

  it('brings Back to the top of a page left without scrolling it', async () => {
    const page = await session.open(short);
    await openForum(page);
    expect(await scrollY(page)).toBe(0);
    // Followed where it is (Playwright's click would first scroll it into view).
    await page
      .locator('.debate-card')
      .first()
      .getByRole('link')
      .first()
      .evaluate((link: HTMLElement) => link.click());
    expect(await scrollY(page)).toBe(0);
    await page.waitForURL('**/community/debate/**');
    await firstRound(page).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => window.scrollY > 1000);

    await page.goBack();
    await page.waitForURL('**/community/ranking');
    await page.locator('.debate-card').nth(4).waitFor();
    await page.waitForFunction(() => window.scrollY === 0);
  });
});
