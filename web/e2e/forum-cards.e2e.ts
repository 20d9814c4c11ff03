import { describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';
import { generateAndSave, share } from './support/debates.js';

const TOPIC = 'Should every school teach first aid?';
const phone = { width: 360, height: 800 };

/** The ranking's card of `topic`, once the community has the shared copy (an event away). */
async function cardOnRanking(page: Page, topic: string): Promise<Locator> {
  const card = page
    .locator('.debate-card')
    .filter({ has: page.getByRole('heading', { name: topic }) });
  for (let attempt = 0; attempt < 40; attempt += 1) {
    await page.goto('/community/ranking');
    await page.locator('.debate-card, .empty-state').first().waitFor();
    if ((await card.count()) > 0) return card;
    await page.waitForTimeout(250);
  }
  throw new Error(`${topic} never reached the ranking`);
}

/** How many rows the card's vote buttons take: the distinct tops of their boxes. */
async function voteRows(card: Locator): Promise<number> {
  const buttons = await card.getByRole('group', { name: 'Vote' }).getByRole('button').all();
  expect(buttons).toHaveLength(3);
  const tops = new Set<number>();
  for (const button of buttons) {
    const box = await button.boundingBox();
    if (box) tops.add(Math.round(box.y));
  }
  return tops.size;
}

// Issue 38: a forum card is light: one frame, its votes on one row on a phone, and minds changed
// only once a reader has answered.
describe('the forum cards', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('at 360 px: the votes on one row, no card in a card, minds changed once a reader answered', async () => {
    const { page } = session;
    await signUp(page, 'cards-author@example.org');
    await generateAndSave(page, TOPIC);
    await share(page, 0);
    await page.setViewportSize(phone);
    const card = await cardOnRanking(page, TOPIC);
    expect(await voteRows(card)).toBe(1);
    // Nobody has said where they stood: nothing about it.
    expect(await card.getByText(/^Minds changed/).count()).toBe(0);
    // Open, its rounds are part of the card, not a card within it.
    await card.getByRole('button', { name: 'View Debate' }).click();
    await card.getByRole('article', { name: 'Round 1 - First Speaker' }).waitFor();
    expect(await page.locator('.card .card').count()).toBe(0);

    // Another reader is asked first, inside the card: still one card level.
    const reader = await session.open(phone);
    await signUp(reader, 'cards-reader@example.org');
    const theirs = await cardOnRanking(reader, TOPIC);
    await theirs.getByRole('button', { name: 'View Debate' }).click();
    const question = theirs.getByRole('region', {
      name: 'Before you read: where do you stand on this motion?',
    });
    await question.waitFor();
    expect(await reader.locator('.card .card').count()).toBe(0);
    await question.getByRole('button', { name: 'For', exact: true }).click();
    await theirs.getByRole('article', { name: 'Round 1 - First Speaker' }).waitFor();
    const votes = theirs.getByRole('group', { name: 'Vote' });
    await votes.getByRole('button', { name: 'Against 0', exact: true }).click();
    await votes.getByRole('button', { name: 'Against 1', exact: true }).waitFor();

    // Answered before and after: now the card says how many have.
    const answered = await cardOnRanking(reader, TOPIC);
    await answered
      .getByText(
        'Minds changed: 1 reader has said where they stood before and after reading; shown from 5.',
      )
      .waitFor();
    expect(await voteRows(answered)).toBe(1);
  });
});
