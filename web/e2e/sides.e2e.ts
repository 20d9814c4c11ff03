import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';
import { openShared, saveRun, share } from './support/debates.js';

const TOPIC = 'Should every school teach cooking?';
// Two stances both tables of labels name alike (spec §4), in two colour bands.
const FIRST = { name: 'First Speaker', stance: 0.9, side: 'Strongly For' };
const SECOND = { name: 'Second Speaker', stance: -0.4, side: 'Against' };

/** Moves a speaker card's stance slider to `stance` with the keyboard, as a person would. */
async function setStance(page: Page, speaker: string, stance: number): Promise<void> {
  const slider = page.getByRole('region', { name: speaker, exact: true }).getByRole('slider');
  await slider.focus();
  await page.keyboard.press('Home');
  for (let step = 0; step < Math.round((stance + 1) * 10); step += 1) {
    await page.keyboard.press('ArrowRight');
  }
  expect(await slider.inputValue()).toBe(String(stance));
}

/** What colours a box: its left bar. */
const barColour = (box: Locator) =>
  box.evaluate((element) => getComputedStyle(element).borderLeftColor);

/** Every turn on the page: its heading and its bar's colour. */
async function turns(page: Page): Promise<Array<{ heading: string; colour: string }>> {
  await page.locator('.turn').first().waitFor();
  return page.locator('.turn').evaluateAll((elements) =>
    elements.map((element) => ({
      heading: element.querySelector('h4')?.textContent ?? '',
      colour: getComputedStyle(element).borderLeftColor,
    })),
  );
}

/** Each turn is headed by its speaker and side, and barred in its stance's colour. */
function expectSides(
  found: Array<{ heading: string; colour: string }>,
  colours: { first: string; second: string },
): void {
  expect(found).toHaveLength(6);
  for (const [index, turn] of found.entries()) {
    const [speaker, colour] = index % 2 === 0 ? [FIRST, colours.first] : [SECOND, colours.second];
    expect(turn).toEqual({ heading: `${speaker.name} · ${speaker.side}`, colour });
  }
}

/** The serious and critical axe-core violations on the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help}`);
}

// Issue 38: each speaker's turns in its stance's colour, as on its setup card, and its side named.
describe("the speakers' sides", () => {
  // Written at once; the 1.5 s between turns is when a finished turn is the latest.
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '1500',
    }),
  });

  it('colours and names each side live, in the history and on the public page', async () => {
    const { page } = session;
    await signUp(page, 'sides@example.org');
    await page.goto('/engine');
    await setStance(page, FIRST.name, FIRST.stance);
    await setStance(page, SECOND.name, SECOND.stance);
    // The setup cards' colours for the two stances, as the page draws them.
    const colours = {
      first: await barColour(page.getByRole('region', { name: FIRST.name, exact: true })),
      second: await barColour(page.getByRole('region', { name: SECOND.name, exact: true })),
    };
    expect(colours.first).not.toBe(colours.second);

    await page.getByLabel('Debate topic').fill(TOPIC);
    await page.getByRole('button', { name: 'Begin discussion' }).click();
    // The first turn just finished, before the next starts: open, its whole text in view.
    const justFinished = await page.waitForFunction(() => {
      const articles = [...document.querySelectorAll('article.turn')];
      const first = articles[0];
      const button = first?.querySelector('button');
      if (button?.textContent !== 'Show Less') return null;
      return {
        text: first?.querySelector('.turn-text')?.textContent ?? '',
        turns: articles.length,
      };
    });
    const { text: whole, turns: shown } = (await justFinished.jsonValue()) ?? {
      text: '',
      turns: 0,
    };
    expect(shown).toBe(1);

    await page.getByRole('button', { name: 'Begin discussion' }).waitFor({ timeout: 30_000 });
    // The next ones started since: the first shows its summary, and opens again on request.
    const first = page.getByRole('article').first();
    const summary = (await first.locator('.turn-text').textContent()) ?? '';
    expect(summary).not.toBe(whole);
    await first.getByRole('button', { name: 'Show More' }).click();
    expect(await first.locator('.turn-text').textContent()).toBe(whole);
    await first.getByRole('button', { name: 'Show Less' }).click();
    // The last turn is still the latest: open.
    await page.getByRole('article').last().getByRole('button', { name: 'Show Less' }).waitFor();
    expectSides(await turns(page), colours);

    // The transcript and the opened settings keep AA contrast, in light and in dark.
    await page.getByRole('button', { name: 'Global Settings' }).click();
    for (const toggle of await page.getByRole('button', { name: 'Settings', exact: true }).all()) {
      await toggle.click();
    }
    expect(await violations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await violations(page)).toEqual([]);
    const dark = {
      first: await barColour(page.getByRole('region', { name: FIRST.name, exact: true })),
      second: await barColour(page.getByRole('region', { name: SECOND.name, exact: true })),
    };
    expect(dark).not.toEqual(colours);
    expectSides(await turns(page), dark);
    await page.emulateMedia({ colorScheme: 'light' });

    await saveRun(page);
    await page.goto('/community/history');
    await page.getByRole('button', { name: 'View Debate' }).first().click();
    expectSides(await turns(page), colours);

    const path = await share(page, 0);
    await openShared(page, path);
    expectSides(await turns(page), colours);
  }, 90_000);
});
