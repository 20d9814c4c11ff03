import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { desktop, useBrowser } from './support/browser.js';
import { confirmShare } from './support/debates.js';

const FIRST = 'Should voting be compulsory in national elections?';
const SECOND = 'Is open-source software a public good?';

/** Generates a debate on /engine and saves it under `categories`. */
async function generateAndSave(page: Page, topic: string, categories: readonly string[]) {
  await page.goto('/engine');
  await page.getByLabel('Debate topic').fill(topic);
  await page.getByRole('button', { name: 'Begin discussion' }).click();
  const panel = page.getByRole('region', { name: 'Save Your Debate' });
  await panel.waitFor({ timeout: 30_000 });
  const save = panel.getByRole('button', { name: 'Save Debate' });
  expect(await save.isDisabled()).toBe(true); // no category yet
  for (const category of categories) {
    await panel.getByRole('button', { name: category, exact: true }).click();
  }
  await save.click();
  await page.getByRole('status').getByText('Debate saved to your history!').waitFor();
  const saved = panel.getByRole('button', { name: 'Debate Saved' });
  expect(await saved.isDisabled()).toBe(true);
  expect(await saved.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(
    'rgb(29, 107, 53)',
  );
}

function card(page: Page, topic: string) {
  return page.getByRole('article').filter({ has: page.getByRole('heading', { name: topic }) });
}

async function cardOnRanking(page: Page, topic: string) {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    await page.goto('/community/ranking');
    await page.locator('.debate-list').waitFor();
    await page
      .locator('.debate-card, .empty-state')
      .first()
      .waitFor()
      .catch(() => undefined);
    if ((await card(page, topic).count()) > 0) return card(page, topic);
    await page.waitForTimeout(250);
  }
  throw new Error(`${topic} never reached the ranking`);
}

// The offline speaker writes the debates, fast.
describe('the community journey', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('generate, save, find in the history, share, and see another user vote and star it', async () => {
    const { page } = session;
    await signUp(page, 'ada@example.org');

    // Saving: at most 3 categories, the others dimmed once 3 are chosen.
    await page.goto('/engine');
    await page.getByLabel('Debate topic').fill(FIRST);
    await page.getByRole('button', { name: 'Begin discussion' }).click();
    const panel = page.getByRole('region', { name: 'Save Your Debate' });
    await panel.waitFor({ timeout: 30_000 });
    for (const category of ['Politics', 'Society', 'Ethics']) {
      await panel.getByRole('button', { name: category, exact: true }).click();
    }
    const culture = panel.getByRole('button', { name: 'Culture', exact: true });
    expect(await culture.getAttribute('aria-disabled')).toBe('true');
    await culture.click({ force: true });
    expect(await culture.getAttribute('aria-pressed')).toBe('false');
    await panel.getByRole('button', { name: 'Save Debate' }).click();
    await page.getByRole('status').getByText('Debate saved to your history!').waitFor();
    expect(await panel.getByRole('button', { name: 'Debate Saved' }).isDisabled()).toBe(true);

    await generateAndSave(page, SECOND, ['Technology']);

    // The history: count, search, category, sort, rounds.
    await page.goto('/community/history');
    await page.getByText('2 debates').waitFor();
    await page.getByLabel('Search').fill('open-source');
    await page.getByText('1 debate', { exact: true }).waitFor();
    expect(await page.getByRole('article').count()).toBe(1);
    await page.getByLabel('Search').fill('no such words');
    await page.getByText('No debates found matching your criteria').waitFor();
    await page.getByLabel('Search').fill('');
    await page.getByText('2 debates').waitFor();
    await page.getByLabel('Category').selectOption('Ethics');
    await page.getByText('1 debate', { exact: true }).waitFor();
    expect(await page.getByRole('article').first().getByRole('heading').textContent()).toBe(FIRST);
    await page.getByLabel('Category').selectOption('');
    await page.getByText('2 debates').waitFor();
    const headings = () => page.locator('.debate-card h3').allTextContents();
    expect(await headings()).toEqual([SECOND, FIRST]);
    await page.getByLabel('Sort').selectOption('oldest');
    await page.waitForFunction(
      (first) => document.querySelector('.debate-card h3')?.textContent === first,
      FIRST,
    );
    const first = card(page, FIRST);
    await first
      .getByText('Position: Strongly For')
      .or(first.getByText('Position: Against'))
      .first()
      .waitFor();
    await first.getByRole('button', { name: 'View Debate' }).click();
    await first.getByRole('article', { name: 'Round 1 - First Speaker' }).waitFor();
    expect(await first.getByRole('article', { name: /^Round \d - / }).count()).toBe(6);

    // Sharing.
    await first.getByRole('button', { name: 'Share with Community' }).click();
    await confirmShare(page);
    await page
      .getByRole('status')
      .getByText('Debate shared successfully! It will appear in Community Rankings.')
      .waitFor();
    expect(await first.getByRole('button', { name: 'Shared with Community' }).isDisabled()).toBe(
      true,
    );
    await card(page, SECOND).getByRole('button', { name: 'Share with Community' }).click();
    await confirmShare(page);
    await card(page, SECOND).getByRole('button', { name: 'Shared with Community' }).waitFor();

    // In the ranking, with the author's own For vote.
    const adaCard = await cardOnRanking(page, FIRST);
    expect(await adaCard.getByRole('button', { name: 'For 1' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await adaCard.getByText('For 100%').count()).toBe(1);

    // Another user votes, changes the vote, stars, and filters Starred.
    const bob = await session.open(desktop);
    await signUp(bob, 'bob@example.org');
    const bobCard = await cardOnRanking(bob, FIRST);
    expect(await bobCard.getByText(/^Shared /).textContent()).toMatch(/^Shared \w+/);
    await bobCard.getByRole('button', { name: 'Against 0' }).click();
    await bobCard.getByRole('button', { name: 'Against 1' }).waitFor();
    expect(
      await bobCard.getByRole('button', { name: 'Against 1' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await bobCard.getByText('For 50%').count()).toBe(1);
    await bobCard.getByRole('button', { name: 'Interesting 0' }).click();
    await bobCard.getByRole('button', { name: 'Interesting 1' }).waitFor();
    await bobCard.getByRole('button', { name: 'Against 0' }).waitFor();
    await bobCard.getByRole('button', { name: 'Star debate' }).click();
    await bobCard.getByRole('button', { name: 'Unstar debate' }).waitFor();
    await bob.getByRole('button', { name: 'Starred' }).click();
    await bob.waitForFunction(() => document.querySelectorAll('.debate-card').length === 1);
    expect(await bob.locator('.debate-card h3').allTextContents()).toEqual([FIRST]);
    await bob.getByRole('button', { name: 'All Debates' }).click();
    await bob.waitForFunction(() => document.querySelectorAll('.debate-card').length === 2);
    // After a reload the votes and the star come from the server.
    const reloaded = await cardOnRanking(bob, FIRST);
    expect(
      await reloaded.getByRole('button', { name: 'Interesting 1' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await reloaded.getByRole('button', { name: 'Unstar debate' }).count()).toBe(1);

    // One card expanded at a time; the rounds with Show More / Show Less.
    await reloaded.getByRole('button', { name: 'View Debate' }).click();
    const round = reloaded.getByRole('article', { name: 'Round 1 - First Speaker' });
    await round.waitFor();
    const summary = (await round.locator('.turn-text').textContent()) ?? '';
    await round.getByRole('button', { name: 'Show More' }).click();
    expect(((await round.locator('.turn-text').textContent()) ?? '').length).toBeGreaterThan(
      summary.length,
    );
    await round.getByRole('button', { name: 'Show Less' }).click();
    await card(bob, SECOND).getByRole('button', { name: 'View Debate' }).click();
    await card(bob, SECOND).getByRole('button', { name: 'Hide Debate' }).waitFor();
    expect(await bob.getByRole('button', { name: 'Hide Debate' }).count()).toBe(1);
    expect(await reloaded.getByRole('button', { name: 'View Debate' }).count()).toBe(1);
  }, 150_000);

  it('asks a signed-out visitor to sign in before voting; keeps their stars in the browser', async () => {
    const { page } = session;
    const visitorCard = await cardOnRanking(page, FIRST);
    await visitorCard.getByRole('button', { name: /^For \d+$/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('You need to be logged in to vote on debates.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await visitorCard.getByRole('button', { name: 'Star debate' }).click();
    expect(await page.evaluate(() => localStorage.getItem('starredDebates'))).toMatch(/^\["/);
    await page.getByRole('button', { name: 'Starred' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.debate-card').length === 1);
    await page.getByRole('dialog').count();
    await page.getByRole('button', { name: 'All Debates' }).click();
    await visitorCard.getByRole('button', { name: /^For \d+$/ }).waitFor();
    await visitorCard.getByRole('button', { name: /^For \d+$/ }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL('**/login');
  }, 60_000);

  it('opens a shared debate by its permalink, with link-preview tags and a Markdown export', async () => {
    const { page, app } = session;
    const visitorCard = await cardOnRanking(page, FIRST);
    await visitorCard.getByRole('link', { name: FIRST }).click();
    await page.waitForURL('**/community/debate/**');
    await page.getByRole('heading', { level: 1, name: FIRST }).waitFor();
    const html = await (await fetch(`${app.url}${new URL(page.url()).pathname}`)).text();
    expect(html).toContain(`<meta property="og:title" content="${FIRST}" />`);
    expect(html).toMatch(/<meta property="og:description" content="Two AI speakers debate/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export as Markdown' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(
      'should-voting-be-compulsory-in-national-elections.md',
    );
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    const markdown = readFileSync(path, 'utf8');
    expect(markdown.startsWith(`# ${FIRST}\n`)).toBe(true);
    expect(markdown).toContain('## Round 3 - Second Speaker (Summary)');

    // The app's scripts travel compressed and are cached for good (their names are hashed).
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1] ?? '';
    const asset = await fetch(`${app.url}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('vary')).toBe('accept-encoding');
    expect((await asset.text()).length).toBeGreaterThan(1000); // fetch decodes it

    await page.goto('/community/debate/no-such-debate');
    await page.getByRole('heading', { name: 'Debate not found.' }).waitFor();
  }, 60_000);
});
