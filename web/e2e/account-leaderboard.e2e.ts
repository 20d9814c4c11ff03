import { describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';
import { share } from './support/debates.js';

const TOOLTIP = 'After a week without debates you get 1 for free!';
const REFRESH_NOTE = '(Refreshes after 6 days of inactivity)';
const DAY = 24 * 60 * 60 * 1000;

/**
 * Writes a debate on /engine, both speakers the offline speaker, the first `formal` and the
 * second `casual` (two styles: the styles' board rates it; one model: the models' does not),
 * and waits until it is complete and judged.
 */
async function writeInTwoStyles(page: Page, topic: string): Promise<void> {
  await page.goto('/engine');
  await page.getByRole('button', { name: 'Settings' }).last().waitFor();
  for (const settings of await page.getByRole('button', { name: 'Settings' }).all()) {
    await settings.click();
  }
  const styles = await page.getByLabel('Rhetoric style').all();
  expect(styles).toHaveLength(2);
  await styles[0]?.selectOption('formal');
  await styles[1]?.selectOption('casual');
  await page.getByLabel('Debate topic').fill(topic);
  await page.getByRole('button', { name: 'Begin discussion' }).click();
  await page.getByRole('region', { name: 'Save Your Debate' }).waitFor({ timeout: 45_000 });
  await page.getByRole('region', { name: 'The judges’ scorecard' }).waitFor();
}

/** Saves the debate the engine shows (its Save panel, then the toast). */
async function saveShown(page: Page): Promise<void> {
  const panel = page.getByRole('region', { name: 'Save Your Debate' });
  await panel.getByRole('button', { name: 'Science', exact: true }).click();
  await panel.getByRole('button', { name: 'Save Debate' }).click();
  await page.getByRole('status').getByText('Debate saved to your history!').waitFor();
}

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not laid out');
  return box;
}

/** Where the value of the account page's 'Free Debates Remaining' is laid out. */
const freeValue = (page: Page) =>
  page
    .locator('dt', { hasText: 'Free Debates Remaining' })
    .locator('xpath=following-sibling::dd[1]');

// The offline speaker writes every debate (the platform's default), quickly.
describe('the leaderboard’s first board and the account page’s allowance', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('opens on the board with ratings (the styles), keeps the one chosen, the checkbox beside its label', async () => {
    const { page } = session;
    await signUp(page, 'styles@example.org');
    await writeInTwoStyles(page, 'Should trains be free?');
    await saveShown(page);
    await share(page, 0);

    // The models' board rates nothing (the offline speaker on both sides); the styles' does.
    // The boards are recomputed in the background: reload until the styles' table shows.
    const styles = page.getByRole('table', { name: /^Rhetoric styles, offline speaker: 1 judged/ });
    for (let attempt = 0; ; attempt += 1) {
      await page.goto('/community/leaderboard');
      await page.locator('.leaderboard table, .leaderboard .empty-state').first().waitFor();
      if ((await styles.count()) > 0) break;
      if (attempt === 40) throw new Error('The leaderboard never opened on the styles’ table');
      await page.waitForTimeout(250);
    }
    expect(
      await page.getByRole('button', { name: 'Rhetoric styles' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await page.getByText(/^No ratings yet\./).count()).toBe(0);
    expect(new URL(page.url()).search).toBe('');

    // The checkbox and its words on one line, the box first.
    const checkbox = page.getByRole('checkbox', { name: 'Only side-swapped pairs' });
    const [box, words] = await checkbox.evaluate((input) => {
      const label = input.closest('label');
      const range = document.createRange();
      range.selectNodeContents(label ?? input);
      range.setStartAfter(input);
      const rect = (r: DOMRect) => ({ top: r.top, bottom: r.bottom, left: r.left, right: r.right });
      return [rect(input.getBoundingClientRect()), rect(range.getBoundingClientRect())];
    });
    expect(box.right).toBeLessThanOrEqual(words.left);
    expect(Math.abs((box.top + box.bottom) / 2 - (words.top + words.bottom) / 2)).toBeLessThan(4);
    expect(words.bottom - words.top).toBeLessThan(2 * (box.bottom - box.top) + 8);

    // The user's choice wins, and stays in the address: a reload, or a link, opens on it.
    await page.getByRole('button', { name: 'Models', exact: true }).click();
    await page.getByText(/^No ratings yet\./).waitFor();
    expect(new URL(page.url()).searchParams.get('board')).toBe('models');
    await page.reload();
    await page.getByText(/^No ratings yet\./).waitFor();
    expect(
      await page.getByRole('button', { name: 'Models', exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');
  }, 120_000);

  it('shows the allowance’s tooltip once, over the page; at 0, the day the next free debate comes', async () => {
    const { page } = session;
    await signUp(page, 'allowance@example.org');
    const value = freeValue(page);
    await value.filter({ hasText: /^2$/ }).waitFor();
    const term = page.getByText('Free Debates Remaining', { exact: true });
    const tooltip = page.getByRole('tooltip');
    const before = await boxOf(value);

    // Hovered: the tooltip shows, over the page; the value has not moved.
    await term.hover();
    await tooltip.waitFor({ state: 'visible' });
    expect(await tooltip.textContent()).toBe(TOOLTIP);
    expect(await boxOf(value)).toEqual(before);
    // Said once: no second tooltip from a title.
    expect(await page.getByText(TOOLTIP).count()).toBe(1);
    expect(await page.locator(`[title="${TOOLTIP}"]`).count()).toBe(0);

    // Away, then focused from the keyboard: shown again, described, still nothing moves.
    await page.mouse.move(0, 0);
    await tooltip.waitFor({ state: 'hidden' });
    await term.focus();
    await tooltip.waitFor({ state: 'visible' });
    expect(await boxOf(value)).toEqual(before);
    const describedBy = await term.getAttribute('aria-describedby');
    expect(await tooltip.getAttribute('id')).toBe(describedBy);
    // Escape hides it without moving focus.
    await page.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'hidden' });

    // Both free debates spent: the note, and the day of the next one (the usage service's).
    await writeInTwoStyles(page, 'Is a hot dog a sandwich?');
    // Saved: the next begins without asking whether to replace it.
    await saveShown(page);
    const started = Date.now();
    await writeInTwoStyles(page, 'Should homework be abolished?');
    // The engine says it too, under its count.
    const engineLine = page.locator('.free-left', { hasText: /^0 free debates left\./ });
    await engineLine.locator('time').waitFor();
    const engineAt = await engineLine.locator('time').getAttribute('datetime');
    await page.goto('/account');
    await value.getByText(REFRESH_NOTE).waitFor();
    const date = value.locator('time');
    const at = Date.parse((await date.getAttribute('datetime')) ?? '');
    expect(await date.getAttribute('datetime')).toBe(engineAt);
    expect(at - started).toBeGreaterThan(6 * DAY - 60_000);
    expect(at - started).toBeLessThan(6 * DAY + 60_000);
    const written = await page.evaluate(
      (iso) =>
        new Date(iso).toLocaleDateString(undefined, {
          year: 'numeric',
          month: 'long',
          day: 'numeric',
        }),
      new Date(at).toISOString(),
    );
    expect(await value.textContent()).toBe(`0 ${REFRESH_NOTE}Your next free debate: ${written}`);
    expect(await boxOf(value)).toMatchObject({ x: before.x });
  }, 120_000);
});
