import { describe, expect, it } from '@jest/globals';
import type { Route } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';
import { openShared, publishAndOpen } from './support/debates.js';

// Issue 25: a shared debate's page is not a dead end.
describe("a shared debate's page", () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
      // One vote an hour per account: the second is refused by the gateway, as a flood would be.
      RATE_LIMITS: JSON.stringify({ vote: { account: '1/1h' } }),
    }),
  });

  it('counts views in words, stars the debate and copies its link', async () => {
    const { page } = session;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signUp(page, 'page-author@example.org');
    const path = await publishAndOpen(page, 'Should parks stay open all night?');
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

  it('puts back a vote the server refuses, and says why under the vote buttons', async () => {
    const { page } = session;
    await signUp(page, 'page-voter@example.org');
    await publishAndOpen(page, 'Should libraries lend tools?');
    const votes = page.getByRole('group', { name: 'Vote' });
    const button = (name: string) => votes.getByRole('button', { name, exact: true });
    // The author's own For vote on sharing, changed: the account's one vote this hour.
    await button('Against 0').click();
    await button('Against 1').waitFor();
    expect(await button('For 0').count()).toBe(1);

    // Held on its way, the next vote shows at once; then the gateway refuses it.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = async (route: Route) => {
      if (route.request().postData()?.includes('vote(')) await released;
      await route.continue();
    };
    await page.route('**/graphql', held);
    await button('Interesting 0').click();
    await button('Interesting 1').waitFor({ timeout: 1_000 });
    expect(await button('Against 0').count()).toBe(1);
    release();
    const problem = page.locator('.after-vote').getByRole('alert');
    await problem.getByText(/^Too many attempts\. Try again in /).waitFor();
    await problem.getByRole('button', { name: 'Retry' }).waitFor();
    expect(await button('Interesting 0').count()).toBe(1);
    expect(await button('Against 1').getAttribute('aria-pressed')).toBe('true');
    await page.unroute('**/graphql', held);
  }, 60_000);
});
