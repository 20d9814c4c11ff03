import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';
import { confirmShare, generateAndSave, openShared, shareDialog } from './support/debates.js';

const SHARED = 'Debate shared successfully! It will appear in Community Rankings.';
const UNSHARED = 'Debate unshared successfully. It no longer appears in Community Rankings.';

/** The history's card of `topic`. */
async function savedCard(page: Page, topic: string): Promise<Locator> {
  await page.goto('/community/history');
  const card = page
    .locator('.debate-card')
    .filter({ has: page.getByRole('heading', { name: topic }) });
  await card.waitFor();
  return card;
}

/** Whether the forum lists `topic`, once its list has come. */
async function onForum(page: Page, topic: string): Promise<boolean> {
  await page.goto('/community/ranking');
  await page.locator('.debate-card, .empty-state').first().waitFor();
  return (await page.getByRole('heading', { name: topic }).count()) > 0;
}

/** Waits until the forum lists `topic` (`listed`) or not: the community follows by an event. */
async function untilForum(page: Page, topic: string, listed: boolean): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    if ((await onForum(page, topic)) === listed) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`${topic} is ${listed ? 'not' : 'still'} on the forum`);
}

/** The serious and critical axe-core violations on the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}) ${violation.help}`);
}

/** Whether the focus is on `locator`'s element. */
function focused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === document.activeElement);
}

// Issue 38: sharing is asked first, says what becomes public, can be undone, and gives its link.
describe('sharing a debate from the history', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('asks first, saying what becomes public; Escape and Cancel share nothing', async () => {
    const { page } = session;
    const topic = 'Should every city plant a tree for each child born?';
    await signUp(page, 'sharing-cancel@example.org');
    await generateAndSave(page, topic);
    const card = await savedCard(page, topic);
    const shareButton = card.getByRole('button', { name: 'Share with Community' });

    await shareButton.click();
    const dialog = shareDialog(page);
    await dialog.waitFor();
    const said = await dialog.textContent();
    for (const part of [topic, 'the speakers’ turns', 'the judges’ verdict', 'Everyone']) {
      expect(said).toContain(part);
    }
    expect(said).toContain('You can unshare it later');
    expect(await violations(page)).toEqual([]);
    // The focus is on Share, and never reaches the page behind however far one tabs.
    expect(await focused(dialog.getByRole('button', { name: 'Share', exact: true }))).toBe(true);
    for (let step = 0; step < 4; step += 1) {
      await page.keyboard.press('Tab');
      const onPage = await page.evaluate(() => {
        const active = document.activeElement;
        return active !== null && active !== document.body && !active.closest('dialog');
      });
      expect(onPage).toBe(false);
    }
    // Escape cancels, and gives the focus back.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(shareButton)).toBe(true);

    await shareButton.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await shareButton.isEnabled()).toBe(true);
    expect(await card.getByRole('link', { name: 'Public page' }).count()).toBe(0);

    // Nothing was shared: the history says so after a reload, and the forum has no copy.
    const again = await savedCard(page, topic);
    expect(await again.getByRole('button', { name: 'Share with Community' }).isEnabled()).toBe(
      true,
    );
    // A copy would reach the forum by an event, a moment later: absent at each of several reads.
    for (let read = 0; read < 4; read += 1) {
      expect(await onForum(page, topic)).toBe(false);
      await page.waitForTimeout(500);
    }
  });

  it('shares on Share, copies the public link from the toast, and unshares from the history', async () => {
    const { page } = session;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const topic = 'Should museums open late one night a week?';
    await signUp(page, 'sharing-undo@example.org');
    await generateAndSave(page, topic);
    const card = await savedCard(page, topic);
    await card.getByRole('button', { name: 'Share with Community' }).click();
    await confirmShare(page);

    const toast = page.getByRole('status').filter({ hasText: SHARED });
    // The pointer on the toast holds it up while it is checked, in light and in dark.
    await toast.hover();
    expect(await violations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await violations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await toast.getByRole('button', { name: 'Copy link' }).click();
    await toast.getByText('Link copied.').waitFor();
    const path = await card.getByRole('link', { name: 'Public page' }).getAttribute('href');
    expect(path).toMatch(/^\/community\/debate\//);
    const url = new URL(path ?? '', session.app.url).href;
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await openShared(page, path ?? '');
    await untilForum(page, topic, true);

    // Unshared, after its own question.
    const shared = await savedCard(page, topic);
    await shared.getByRole('button', { name: 'Unshare' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unshare this debate?' });
    await dialog.getByRole('button', { name: 'Unshare', exact: true }).click();
    await page.getByRole('status').filter({ hasText: UNSHARED }).waitFor();
    await shared.getByRole('button', { name: 'Share with Community' }).waitFor();
    expect(await shared.getByRole('link', { name: 'Public page' }).count()).toBe(0);

    // Gone from the forum, and its page says so.
    await untilForum(page, topic, false);
    await page.goto(url);
    await page.getByRole('heading', { name: 'Debate not found.' }).waitFor();
  });
});
