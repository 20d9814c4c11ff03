import { describe, expect, it } from '@jest/globals';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';
import { generateAndSave, openShared, share } from './support/debates.js';

// Issue 25: a shared debate's page is not a dead end.
describe("a shared debate's page", () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('counts views in words, stars the debate and copies its link', async () => {
    const { page } = session;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUp(page, 'page-author@example.org');
    await generateAndSave(page, 'Should parks stay open all night?');
    const path = await share(page, 0);
    await openShared(page, path);
    // The rating follows once the leaderboard has read the debate (" · Rated").
    await page.getByText(/· 1 view( ·|$)/).waitFor();

    await page.getByRole('button', { name: 'Star debate' }).click();
    await page.getByRole('button', { name: 'Unstar debate', pressed: true }).waitFor();
    // The star is the account's: the ranking's Starred view has it.
    await page.goto('/community/ranking');
    await page.getByRole('button', { name: 'Starred' }).click();
    await page.getByRole('heading', { name: 'Should parks stay open all night?' }).waitFor();

    await openShared(page, path);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByRole('status').filter({ hasText: 'Link copied.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      new URL(path, session.app.url).href,
    );
  }, 60_000);
});
