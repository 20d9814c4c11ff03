import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';

const TOPIC = 'Should cities ban private cars from their centres?';
const NO_FREE =
  'No free debates left. Next free debate within 7 days or consider supporting us by purchasing a PRO account';

async function usageRow(page: Page, term: string): Promise<string> {
  await page.goto('/account');
  const stats = page.getByRole('region', { name: 'Usage Statistics' });
  const value = stats.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
  await value.filter({ hasNotText: '…' }).waitFor();
  return (await value.textContent()) ?? '';
}

async function begin(page: Page, replacing = false) {
  await page.goto('/engine');
  // The last debate, not saved, comes back first; a new one replaces it once confirmed.
  if (replacing) await page.getByRole('region', { name: 'Save Your Debate' }).waitFor();
  await page.getByLabel('Debate topic').fill(TOPIC);
  await page.getByRole('button', { name: 'Begin discussion' }).click();
  if (replacing) {
    await page
      .getByRole('dialog', { name: 'Begin a new debate?' })
      .getByRole('button', { name: 'Begin anyway' })
      .click();
  }
}

// The offline speaker writes the debates (no key is configured), 60 words a second.
describe('generating a debate on /engine', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '60',
      OFFLINE_FIRST_TOKEN_MS: '100',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('asks a signed-out visitor to sign in, and blocks Begin on an empty topic', async () => {
    const { page } = session;
    await page.goto('/engine');
    const beginButton = page.getByRole('button', { name: 'Begin discussion' });
    expect(await beginButton.isDisabled()).toBe(true);
    await page.getByLabel('Debate topic').fill(TOPIC);
    await beginButton.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('sign in for 2 free debate generations instantly!').waitFor();
    await dialog.getByRole('link', { name: 'Sign In' }).click();
    await page.waitForURL('**/login');
  });

  it('streams a debate word by word, then shows it per round, and spends the allowance', async () => {
    const { page } = session;
    await signUp(page, 'gen@example.org');
    expect(await usageRow(page, 'Free Debates Remaining')).toBe('2');

    await begin(page);
    await page.getByRole('button', { name: 'discussion in progress...' }).waitFor();
    expect(await page.getByRole('button', { name: 'discussion in progress...' }).isDisabled()).toBe(
      true,
    );
    await page
      .getByText('First Speaker is speaking: round 1 of 3, Constructive Arguments')
      .waitFor();
    // Words on screen while the first turn is still being written.
    const streaming = page.locator('.turn-text.streaming').first();
    await streaming.filter({ hasText: /\S+ \S+ \S+/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Show More' }).count()).toBe(0);
    const early = (await streaming.textContent()) ?? '';

    await page.getByRole('button', { name: 'Begin discussion' }).waitFor({ timeout: 30_000 });
    // Every turn shows its summary but the last, still open: nothing came after it.
    expect(await page.getByRole('button', { name: 'Show More' }).count()).toBe(5);
    expect(
      await page.getByRole('article').last().getByRole('button', { name: 'Show Less' }).count(),
    ).toBe(1);
    // Who wrote it, truthfully: the offline speaker (npm start's only model), each turn too.
    expect(await page.locator('.offline-note').textContent()).toBe(
      'Both speakers are written by the offline speaker: no AI model is called for this debate.',
    );
    const lines = await page.locator('.turn .provenance').allTextContents();
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(line).toMatch(/^Written by the offline speaker · \d+\.\d s$/);
    for (const round of [
      'Round 1: Constructive Arguments',
      'Round 2: Rebuttal',
      'Round 3: Summary',
    ]) {
      await page.getByRole('region', { name: round }).waitFor();
    }

    const firstTurn = page.getByRole('article').first();
    const summary = (await firstTurn.locator('.turn-text').textContent()) ?? '';
    await firstTurn.getByRole('button', { name: 'Show More' }).click();
    const full = (await firstTurn.locator('.turn-text').textContent()) ?? '';
    expect(full.length).toBeGreaterThan(summary.length);
    expect(full.startsWith(early.trim())).toBe(true);
    await firstTurn.getByRole('button', { name: 'Show Less' }).click();
    expect(await firstTurn.locator('.turn-text').textContent()).toBe(summary);

    // Scrolled past the title, the topic stays in view.
    await page.getByRole('article').last().scrollIntoViewIfNeeded();
    await page.locator('.sticky-topic', { hasText: TOPIC }).waitFor();

    expect(await usageRow(page, 'Free Debates Remaining')).toBe('1');
    expect(await usageRow(page, 'Total Debates Generated')).toBe('1');
    // The offline speaker reads and writes no model's tokens.
    expect(await usageRow(page, 'Tokens used by your debates')).toBe('0 in / 0 out');

    await begin(page, true);
    await page.getByRole('button', { name: 'Begin discussion' }).waitFor({ timeout: 30_000 });
    const lastRow = await usageRow(page, 'Free Debates Remaining');
    expect(lastRow).toMatch(/^0 \(Refreshes after 6 days of inactivity\)Your next free debate: \S/);

    await begin(page, true);
    await page.getByRole('alert').getByText(NO_FREE).waitFor();
  }, 90_000);
});
