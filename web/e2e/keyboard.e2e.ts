import { describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { useBrowser } from './support/browser.js';
import { shareDialog } from './support/debates.js';

/**
 * Presses Tab until `target` has the focus, as someone without a mouse would; fails when it is
 * not reached within `most` presses (it cannot be reached by keyboard).
 */
async function tabTo(page: Page, target: Locator, most = 120): Promise<void> {
  await target.waitFor();
  for (let press = 0; press < most; press += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${target.toString()} was not reached with ${most} presses of Tab`);
}

// Issue 25: the main journeys with the keyboard alone (no click, no mouse).
describe('the keyboard alone', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('signs up, generates, saves, shares, votes and stars', async () => {
    const { page } = session;
    const topic = 'Should every library lend musical instruments?';
    await page.goto('/login');

    // Sign up.
    await tabTo(page, page.getByRole('button', { name: 'Create one' }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByLabel('Email'));
    await page.keyboard.type('keys@example.org');
    await tabTo(page, page.getByLabel('Password'));
    await page.keyboard.type('a long enough password');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/account');

    // Generate: to the engine by the navigation, the topic, Enter.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await tabTo(page, nav.getByRole('link', { name: 'AI Engine' }));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/engine');
    await tabTo(page, page.getByLabel('Debate topic'));
    await page.keyboard.type(topic);
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Save Your Debate' });
    await panel.waitFor({ timeout: 30_000 });

    // Save, with a category chosen by Space.
    await tabTo(page, panel.getByRole('button', { name: 'Science', exact: true }));
    await page.keyboard.press('Space');
    await tabTo(page, panel.getByRole('button', { name: 'Save Debate' }));
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Debate saved to your history!').waitFor();

    // Share, from the history.
    await tabTo(page, nav.getByRole('link', { name: 'Community', exact: true }));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/community/ranking');
    await tabTo(page, page.getByRole('link', { name: 'Account Activity' }));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/community/history');
    const saved = page.locator('.debate-card').first();
    await tabTo(page, saved.getByRole('button', { name: 'Share with Community' }));
    await page.keyboard.press('Enter');
    // Asked first: the dialog's Share has the focus.
    await shareDialog(page).waitFor();
    await page.keyboard.press('Enter');
    const href = await saved.getByRole('link', { name: 'Public page' }).getAttribute('href');
    const id = decodeURIComponent(href?.split('/').pop() ?? '');

    // The community's copy comes an event later: asked for over HTTP, not by reloading (two
    // page loads in quick succession can race the session's refresh), then the forum, once.
    for (let attempt = 0; attempt < 80; attempt += 1) {
      const answer = await page.request.post('/graphql', {
        data: {
          query: 'query ($id: String!) { communityDebate(id: $id) { id } }',
          variables: { id },
        },
      });
      const body = (await answer.json()) as { data?: { communityDebate?: { id: string } | null } };
      if (body.data?.communityDebate) break;
      await page.waitForTimeout(250);
    }
    await page.goto('/community/ranking');

    // Vote and star on the forum's card.
    const card = page.locator('.debate-card', { hasText: topic });
    await tabTo(page, card.getByRole('button', { name: 'Against 0', exact: true }));
    await page.keyboard.press('Enter');
    await card.getByRole('button', { name: 'Against 1', exact: true }).waitFor();
    expect(
      await card
        .getByRole('button', { name: 'Against 1', exact: true })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    await tabTo(page, card.getByRole('button', { name: 'Star debate' }));
    await page.keyboard.press('Enter');
    await card.getByRole('button', { name: 'Unstar debate' }).waitFor();
  }, 90_000);
});
