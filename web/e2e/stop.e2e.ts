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

/** Waits until `speaker` is writing its first round and has written a few words, then stops. */
async function stopWhileWriting(page: Page, speaker: string): Promise<void> {
  await page.getByText(`${speaker} is speaking: round 1 of 3, Constructive Arguments`).waitFor();
  await page
    .locator('.turn-text.streaming')
    .filter({ hasText: /\S+ \S+ \S+/ })
    .waitFor();
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
}

// The offline speaker writes slowly (60 words a second): there is time to press Stop.
describe('stopping a debate on /engine', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '60',
      OFFLINE_FIRST_TOKEN_MS: '100',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('gives the free debate back when stopped in the first turn, and keeps a later stop to save', async () => {
    const { page } = session;
    await signUp(page, 'stopper@example.org');
    expect(await freeDebatesLeft(page)).toBe(2);

    // Stopped while the first speaker writes its opening: nothing worth keeping.
    await begin(page, 'Should museums be free to enter?');
    await stopWhileWriting(page, 'First Speaker');
    await page.getByText('Debate stopped. Your free debate was given back.').waitFor();
    // The words written so far stay on the page; nothing more is written, nothing to save.
    expect(await page.locator('.turn').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Save Your Debate' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Begin discussion' }).isEnabled()).toBe(true);
    expect(await freeDebatesLeft(page)).toBe(2);

    // Stopped while the second speaker answers: the first speaker's turn is complete.
    const topic = 'Should homework be optional?';
    await begin(page, topic);
    await stopWhileWriting(page, 'Second Speaker');
    await page.getByText('Debate stopped. It used one of your free debates.').waitFor();
    expect(await page.locator('.turn').count()).toBe(2);
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
