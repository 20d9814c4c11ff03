import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';

/** Waits for the engine to show a complete debate: six turns and the Save panel. */
async function complete(page: Page): Promise<void> {
  await page.getByRole('region', { name: 'Save Your Debate' }).waitFor({ timeout: 30_000 });
  expect(await page.locator('.turn').count()).toBe(6);
}

// Issue 25's "nothing lost": a debate that used the allowance is never thrown away in silence.
describe('the first minutes on /engine', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('shows the last debate again after a reload and asks before a new one replaces it', async () => {
    const { page } = session;
    await signUp(page, 'nothing-lost@example.org');
    await page.goto('/engine');
    await page.getByText('2 free debates left.').waitFor();
    await page.getByLabel('Debate topic').fill('Should libraries lend tools?');
    // Enter begins, as the button does.
    await page.getByLabel('Debate topic').press('Enter');
    await complete(page);
    await page.getByText('1 free debate left.').waitFor();

    // A reload, then a trip away and back: the debate is there, with its Save panel.
    await page.reload();
    await complete(page);
    expect(await page.locator('.turn').first().textContent()).toContain(
      'Should libraries lend tools',
    );
    // In the app (a new page load right after another can race the session's refresh).
    await page.getByRole('navigation').getByRole('link', { name: 'Community' }).first().click();
    await page.waitForURL('**/community/ranking');
    await page.getByRole('navigation').getByRole('link', { name: 'AI Engine' }).first().click();
    await complete(page);

    // Begin over it asks first; keeping it starts nothing.
    await page.getByLabel('Debate topic').fill('Should museums open at night?');
    await page.getByRole('button', { name: 'Begin discussion' }).click();
    const dialog = page.getByRole('dialog', { name: 'Begin a new debate?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    expect(await dialog.count()).toBe(0);
    expect(await page.getByText('1 free debate left.').count()).toBe(1);

    // Saved, a new debate begins without a question.
    const panel = page.getByRole('region', { name: 'Save Your Debate' });
    await panel.getByRole('button', { name: 'Science', exact: true }).click();
    await panel.getByRole('button', { name: 'Save Debate' }).click();
    await panel.getByRole('button', { name: 'Debate Saved' }).waitFor();
    await page.getByRole('button', { name: 'Begin discussion' }).click();
    await page.getByText('discussion in progress...').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await complete(page);
    await page.getByText('0 free debates left.').waitFor();
  }, 90_000);

  it('keeps the topic and settings typed before signing in', async () => {
    const { page } = session;
    await page.goto('/engine');
    await page.getByLabel('Debate topic').fill('Should every town have a makerspace?');
    await page.getByRole('button', { name: 'Global Settings' }).click();
    await page.getByLabel('Moderator').check();
    await page.getByRole('button', { name: 'Begin discussion' }).click();
    await page
      .getByRole('dialog', { name: 'Sign in required' })
      .getByRole('link', { name: 'Sign In' })
      .click();
    await page.getByRole('button', { name: 'Create one' }).click();
    await page.getByLabel('Email').fill('draft-keeper@example.org');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create Account', exact: true }).click();
    await page.waitForURL('**/account');
    await page.goto('/engine');
    expect(await page.getByLabel('Debate topic').inputValue()).toBe(
      'Should every town have a makerspace?',
    );
    await page.getByRole('button', { name: 'Global Settings' }).click();
    expect(await page.getByLabel('Moderator').isChecked()).toBe(true);
  }, 60_000);
});

// Issue 25's dialogs: they hold focus, close on Escape and on the backdrop, and give focus back.
describe('a dialog', () => {
  const session = useBrowser();

  it('keeps Tab inside, closes on Escape and on the backdrop, and returns focus', async () => {
    const { page } = session;
    await page.goto('/engine');
    await page.getByLabel('Debate topic').fill('Should cities plant more trees?');
    // Enabled once the catalogue and the session are known (a disabled button takes no focus).
    const begin = page.getByRole('button', { name: 'Begin discussion', disabled: false });
    await begin.waitFor();
    await begin.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Sign in required' });
    await dialog.waitFor();
    const focusedIn = () =>
      page.evaluate(() => {
        const open = document.querySelector('dialog[open]');
        return open !== null && open.contains(document.activeElement);
      });
    expect(await focusedIn()).toBe(true);
    // However often Tab is pressed, focus never reaches the page behind.
    for (let press = 0; press < 6; press += 1) {
      await page.keyboard.press('Tab');
      const onPage = await page.evaluate(() => {
        const active = document.activeElement;
        return active !== null && active !== document.body && !active.closest('dialog');
      });
      expect(onPage).toBe(false);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await begin.evaluate((element) => element === document.activeElement)).toBe(true);

    // Opened again: a click on the backdrop closes it.
    await begin.click();
    await dialog.waitFor();
    await page.mouse.click(5, 5);
    await dialog.waitFor({ state: 'detached' });
  }, 30_000);
});
