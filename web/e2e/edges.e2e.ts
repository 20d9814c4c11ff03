import { describe, expect, it } from '@jest/globals';
import { useBrowser } from './support/browser.js';

// Issue 25's edges: the small things a first visit notices.
describe('the edges of a first visit', () => {
  const session = useBrowser();

  it('has an icon, a title per page, and a 404 that leads somewhere', async () => {
    const { page } = session;
    const icon = await page.request.get('/favicon.svg');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/^image\/svg\+xml/);

    const titles: Array<[string, string]> = [
      ['/community/ranking', 'Community Forum - AI Debate'],
      ['/community/leaderboard', 'Leaderboard - AI Debate'],
      ['/engine', 'AI Debate Engine - AI Debate'],
      ['/about', 'About - AI Debate'],
      ['/login', 'Sign In - AI Debate'],
    ];
    for (const [path, title] of titles) {
      await page.goto(path);
      await page.waitForFunction((expected) => document.title === expected, title);
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
    }

    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.title()).toBe('Page not found - AI Debate');
    await page.getByText('There is no page at /no-such-page.', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Start a debate' }).click();
    await page.waitForURL('**/engine');

    // Every page ends with a footer that says what this is and leads on.
    const footer = page.getByRole('contentinfo');
    await footer.getByText('two AI speakers, three rounds', { exact: false }).waitFor();
    await footer.getByRole('link', { name: 'Model leaderboard' }).click();
    await page.waitForURL('**/community/leaderboard');
  });

  it('counts the topic’s characters near its limit', async () => {
    const { page } = session;
    await page.goto('/engine');
    const box = page.getByLabel('Debate topic');
    await box.fill('x'.repeat(399));
    expect(await page.locator('.topic-counter').count()).toBe(0);
    await box.fill('x'.repeat(480));
    await page.getByText('480 of 500 characters').waitFor();
    // The box takes no more than the limit.
    await box.fill('x'.repeat(520));
    expect((await box.inputValue()).length).toBe(500);
    await page.getByText('500 of 500 characters').waitFor();
  });
});

const EXAMPLE_NOTE = 'An example debate, written by the offline speaker to show how one reads.';

// npm start on an empty store: a first look finds example debates, each saying what it is.
describe('a first look at a new platform', () => {
  const session = useBrowser({ env: () => ({ SEED_EXAMPLES: 'true' }) });

  it('shows the example debates, marked as examples', async () => {
    const { page } = session;
    // Shared before the platform said it was ready; the community's copies come by events.
    const cards = page.locator('.debate-card');
    for (let attempt = 0; attempt < 40; attempt += 1) {
      await page.goto('/community/ranking');
      await page.locator('.debate-card, .empty-state').first().waitFor();
      if ((await cards.count()) === 5) break;
      await page.waitForTimeout(250);
    }
    expect(await cards.count()).toBe(5);
    expect(await page.getByText(EXAMPLE_NOTE).count()).toBe(5);
    await cards.first().getByRole('link').first().click();
    await page.getByRole('heading', { name: 'Round 1: Constructive Arguments' }).waitFor();
    await page.getByText(EXAMPLE_NOTE).waitFor();
    await page.getByText('by AI Debate examples', { exact: false }).waitFor();
  });
});
