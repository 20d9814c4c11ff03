import { describe, expect, it } from '@jest/globals';
import type { Page, Route } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';
import { generateAndSave, openShared, share } from './support/debates.js';

const UNREACHABLE = 'The server could not be reached. Check your connection and try again.';

/** Makes the gateway's answers to operations containing `field` fail as `fail` says. */
async function failing(page: Page, field: string, fail: (route: Route) => Promise<void>) {
  const handler = async (route: Route) => {
    if (route.request().postData()?.includes(field)) await fail(route);
    else await route.continue();
  };
  await page.route('**/graphql', handler);
  return () => page.unroute('**/graphql', handler);
}

const offline = (route: Route) => route.abort('internetdisconnected');
const badGateway = (route: Route) =>
  route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });

// Issue 25's "errors people can act on" and the forum's view in the address.
describe('errors people can act on', () => {
  // Debates written quickly, slowly enough to watch one being followed.
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '150',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '300',
    }),
  });

  it('says what went wrong in plain words, where it went wrong, and offers to retry', async () => {
    const { page } = session;
    // Signing in without a network: a sentence, never the browser's 'Failed to fetch'.
    await page.goto('/login');
    const restore = await failing(page, 'signIn(', offline);
    await page.getByLabel('Email').fill('nobody@example.org');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByRole('alert').getByText(UNREACHABLE).waitFor();
    await restore();

    // The forum failing to load: the reason and Retry, not "No debates for this filter" too.
    const restoreList = await failing(page, 'communityDebates(', badGateway);
    await page.goto('/community/ranking');
    const alert = page.getByRole('alert');
    await alert.getByText(/^Unable to load debates: The server is not answering/).waitFor();
    expect(await page.getByText('No debates for this filter').count()).toBe(0);
    await restoreList();
    await page.getByRole('button', { name: 'Retry' }).click();
    // An empty forum, no filter set: what this is, and the way to the first debate.
    await page.getByText(/Two AI speakers debate a motion over three rounds/).waitFor();
    expect(await page.getByText('No debates found for the selected filters.').count()).toBe(0);
    await page.getByRole('link', { name: 'Start a Debate' }).waitFor();
  });

  it('keeps the forum’s filters in the address, through a reload', async () => {
    const { page } = session;
    await page.goto('/community/ranking');
    await page.getByLabel('Sort').selectOption({ label: 'Most Popular' });
    await page.getByLabel('Time period').selectOption({ label: 'Today' });
    await page.getByRole('button', { name: 'Starred' }).click();
    await page.waitForURL('**/community/ranking?sort=most-popular&period=today&show=starred');
    await page.getByText('No debates found for the selected filters.').waitFor();
    await page.reload();
    expect(await page.getByLabel('Sort').inputValue()).toBe('MOST_POPULAR');
    expect(await page.getByLabel('Time period').inputValue()).toBe('TODAY');
    expect(await page.getByRole('button', { name: 'Starred' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    // Back to the defaults: a plain address.
    await page.getByRole('button', { name: 'All Debates' }).click();
    await page.getByLabel('Sort').selectOption({ label: 'Most Recent' });
    await page.getByLabel('Time period').selectOption({ label: 'All Time' });
    await page.waitForURL((url) => url.pathname === '/community/ranking' && url.search === '');
  });

  it('shows votes and stars at once, puts them back when they fail, and retries on the card', async () => {
    const { page } = session;
    await signUp(page, 'acts@example.org');
    await generateAndSave(page, 'Should every school teach chess?');
    const path = await share(page, 0);
    await openShared(page, path);
    await page.goto('/community/ranking');
    const card = page.locator('.debate-card').first();
    const button = (name: string) => card.getByRole('button', { name, exact: true });
    // The author's own For vote on sharing.
    await button('For 1').waitFor();

    // A slow network: the vote shows before the server has answered.
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const restoreSlow = await failing(page, 'vote(', async (route) => {
      await answered;
      await route.continue();
    });
    await button('Against 0').click();
    await button('Against 1').waitFor({ timeout: 1_000 });
    expect(await button('For 0').count()).toBe(1);
    release();
    await button('Against 1').waitFor();
    await restoreSlow();

    // The server refusing it: the vote goes back, and the card says why, with Retry.
    const restoreVote = await failing(page, 'vote(', offline);
    await button('Interesting 0').click();
    const problem = card.getByRole('alert');
    await problem.getByText(UNREACHABLE).waitFor();
    expect(await button('Against 1').getAttribute('aria-pressed')).toBe('true');
    expect(await button('Interesting 0').count()).toBe(1);
    await restoreVote();
    await problem.getByRole('button', { name: 'Retry' }).click();
    await button('Interesting 1').waitFor();
    expect(await card.getByRole('alert').count()).toBe(0);

    // A star that fails is taken back, the reason on its card.
    const restoreStar = await failing(page, 'toggleStar(', offline);
    await card.getByRole('button', { name: 'Star debate' }).click();
    await card.getByRole('alert').getByText(UNREACHABLE).waitFor();
    expect(
      await card.getByRole('button', { name: 'Star debate' }).getAttribute('aria-pressed'),
    ).toBe('false');
    await restoreStar();
    await card.getByRole('alert').getByRole('button', { name: 'Retry' }).click();
    await card.getByRole('button', { name: 'Unstar debate' }).waitFor();

    // The page: round titles, each side's turns, no made-up author for an account without a name.
    await page.goto(path);
    await page.getByRole('heading', { name: 'Round 1: Constructive Arguments' }).waitFor();
    expect(await page.locator('.turn.side-first').count()).toBe(3);
    expect(await page.locator('.turn.side-second').count()).toBe(3);
    expect(await page.locator('.shared-line').textContent()).not.toMatch(/ by /);
  }, 90_000);

  it('offers Retry when a debate could not be begun, and then follows it as it is written', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 390, height: 700 });
    await signUp(page, 'begins@example.org');
    await page.goto('/engine');
    await page.getByLabel('Debate topic').fill('Should towns light their streets all night?');
    const restore = await failing(page, 'startDebate(', offline);
    await page.getByRole('button', { name: 'Begin discussion' }).click();
    const box = page.locator('.error-box');
    await box.getByText(UNREACHABLE).waitFor();
    // Nothing was counted: both free debates are left.
    await page.getByText('2 free debates left.').waitFor();
    await restore();
    await box.getByRole('button', { name: 'Retry' }).click();

    // The page follows the words as they come: the turn being written is in sight, the
    // indicator just under it (not stuck over its last lines).
    const status = page.getByText('First Speaker is speaking: round 2 of 3, Rebuttal');
    await status.waitFor();
    const inSight = await page.evaluate(() => {
      const turns = [...document.querySelectorAll('.turn')];
      const last = turns[turns.length - 1]?.getBoundingClientRect();
      const indicator = document.querySelector('.run-status')?.getBoundingClientRect();
      return {
        lastTurnBottom: last?.bottom ?? -1,
        indicatorTop: indicator?.top ?? -1,
        indicatorBottom: indicator?.bottom ?? -1,
        height: window.innerHeight,
      };
    });
    expect(inSight.lastTurnBottom).toBeGreaterThan(0);
    expect(inSight.indicatorBottom).toBeLessThanOrEqual(inSight.height);
    expect(inSight.indicatorTop).toBeGreaterThanOrEqual(inSight.lastTurnBottom - 1);
    // Scrolled up to read, the page is left where the reader put it.
    await page.mouse.wheel(0, -20_000);
    await page.waitForFunction(() => window.scrollY === 0);
    await page.getByText('Second Speaker is speaking: round 3 of 3, Summary').waitFor({
      timeout: 30_000,
    });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.locator('.turn.side-first').count()).toBeGreaterThan(0);
    expect(await page.locator('.turn.side-second').count()).toBeGreaterThan(0);
  }, 90_000);
});
