import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';

/** The free debates the account page says are left (its first number). */
async function freeDebatesLeft(page: Page): Promise<number> {
  await page.goto('/account');
  const stats = page.getByRole('region', { name: 'Usage Statistics' });
  const value = stats
    .locator('dt', { hasText: 'Free Debates Remaining' })
    .locator('xpath=following-sibling::dd[1]');
  await value.filter({ hasNotText: '…' }).waitFor();
  return Number.parseInt((await value.textContent()) ?? '', 10);
}

async function begin(page: Page, topic: string): Promise<void> {
  await page.goto('/engine');
  await page.getByLabel('Debate topic').fill(topic);
  await page.getByRole('button', { name: 'Begin discussion' }).click();
}

/** Waits until `speaker` has begun its first round (its model not yet past its first word), then stops. */
async function stopAsItBegins(page: Page, speaker: string): Promise<void> {
  await page.getByText(`${speaker} is speaking: round 1 of 3, Constructive Arguments`).waitFor();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
}

// Each turn's first word comes 5 s after the turn starts (a slow model), then 20 words a second:
// a Stop pressed as a turn begins lands before its first word, however busy the machine.
describe('stopping a debate on /engine', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '20',
      OFFLINE_FIRST_TOKEN_MS: '5000',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('gives the free debate back when stopped before a word, and keeps a later stop to save', async () => {
    const { page } = session;
    await signUp(page, 'stopper@example.org');
    expect(await freeDebatesLeft(page)).toBe(2);

    // Stopped before the first speaker's model wrote a word: nothing used, nothing to keep.
    await begin(page, 'Should museums be free to enter?');
    await stopAsItBegins(page, 'First Speaker');
    await page.getByText('Debate stopped. Your free debate was given back.').waitFor();
    // The turn that had not begun is gone; nothing more is written, nothing to save.
    expect(await page.locator('.turn').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Save Your Debate' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Begin discussion' }).isEnabled()).toBe(true);
    expect(await freeDebatesLeft(page)).toBe(2);

    // Stopped as the second speaker begins: the first speaker's turn is complete.
    const topic = 'Should homework be optional?';
    await begin(page, topic);
    await stopAsItBegins(page, 'Second Speaker');
    await page.getByText('Debate stopped. It used one of your free debates.').waitFor();
    expect(await page.locator('.turn').count()).toBe(1);
    // Not judged.
    expect(await page.getByRole('region', { name: 'The judges’ scorecard' }).count()).toBe(0);
    const panel = page.getByRole('region', { name: 'Save Your Debate' });
    await panel.getByRole('button', { name: 'Science', exact: true }).click();
    await panel.getByRole('button', { name: 'Save Debate' }).click();
    await page.getByRole('status').getByText('Debate saved to your history!').waitFor();

    // In the history, marked as stopped.
    await page.goto('/community/history');
    const card = page.getByRole('article').filter({ hasText: topic });
    await card.getByText('Stopped before the end').waitFor();
    expect(await freeDebatesLeft(page)).toBe(1);
  }, 90_000);
});
