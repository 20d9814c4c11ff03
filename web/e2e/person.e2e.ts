import AxeBuilder from '@axe-core/playwright';
import { describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';
import { openShared, saveRun, share } from './support/debates.js';

const TOPIC = 'Should cities ban private cars from their centres?';
/** A new e-mail account has no display name: its turns are written by the fallback's. */
const WRITER = 'Anonymous User';
const ROUNDS = ['Constructive Arguments', 'Rebuttal', 'Summary'] as const;
/** Sentences per round: above each round's fewest words (40, 25, 20), far below the most. */
const SENTENCES = [5, 4, 3] as const;

/** The user's sentences for `round`: each one different, 13 words, ending at its full stop. */
function sentences(round: number): string[] {
  const count = SENTENCES[round - 1] ?? 3;
  return Array.from(
    { length: count },
    (_, index) =>
      `In round ${round} my point number ${index + 1} is that quiet streets keep children safer.`,
  );
}

/** The serious and critical axe-core violations on the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}) ${violation.help}`);
}

/** Whether the page scrolls sideways (it must not, at any width). */
function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
}

/** Sets up 'You against a model' against the offline speaker, the user opening, For; begins. */
async function beginAgainstOffline(page: Page): Promise<void> {
  await page.goto('/engine');
  await page.getByLabel('Debate topic').fill(TOPIC);
  await page.getByRole('radio', { name: 'You against a model' }).check();
  // The defaults: For, and the user opens.
  expect(await page.getByRole('radio', { name: 'For', exact: true }).isChecked()).toBe(true);
  expect(await page.getByRole('radio', { name: 'You', exact: true }).isChecked()).toBe(true);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Model', { exact: true }).selectOption({ label: 'Offline speaker' });
  await page.getByRole('button', { name: 'Begin discussion' }).click();
}

/** The editor of the user's turn in `round` (1 to 3), once the run waits for it. */
async function editorOf(page: Page, round: number): Promise<Locator> {
  const editor = page.getByRole('textbox', { name: `Your turn: ${ROUNDS[round - 1]}` });
  await editor.waitFor({ timeout: 30_000 });
  return editor;
}

/** Writes the user's turn in `round` and submits it; answers the sentences written. */
async function writeTurn(page: Page, round: number): Promise<string[]> {
  const editor = await editorOf(page, round);
  const mine = sentences(round);
  await editor.fill(mine.join(' '));
  const words = mine.join(' ').split(/\s+/).length;
  await page.getByText(new RegExp(`^${words} words \\(\\d+ to \\d+\\)$`)).waitFor();
  await page.getByRole('button', { name: 'Submit turn' }).click();
  return mine;
}

/** The sentence the model's turn quotes ('You said: “…”'), which must be one of `mine`. */
function quoted(text: string): string {
  const quote = /You said: “([^”]+)”/.exec(text)?.[1];
  if (!quote) throw new Error(`The model's turn quotes nothing of the user's: ${text}`);
  return quote;
}

describe('you against a model, on /engine', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('writes three turns against the offline speaker, which quotes each, then judges, saves and shares, naming who wrote what', async () => {
    const { page } = session;
    await signUp(page, 'person-vs-model@example.org');
    await beginAgainstOffline(page);

    const editor = await editorOf(page, 1);
    // The editor is where the keyboard is, and the page passes axe, light and dark.
    expect(await editor.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await violations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await violations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    // Too few words: Submit turn waits.
    await editor.fill('Too short to count.');
    await page.getByText('4 words (40 to 400)').waitFor();
    expect(await page.getByRole('button', { name: 'Submit turn' }).isDisabled()).toBe(true);

    for (const round of [1, 2, 3]) {
      const mine = await writeTurn(page, round);
      const title = ROUNDS[round - 1] ?? '';
      const myTurn = page.getByRole('article', { name: `First Speaker, ${title}` });
      await myTurn.getByText(`Written by ${WRITER}`, { exact: true }).waitFor();
      // The model's answer: beside the next editor in full, or (the last) as the latest turn.
      const answer =
        round < 3
          ? page.getByRole('article', { name: /^Second Speaker’s last turn/ })
          : page.getByRole('article', { name: `Second Speaker, ${title}` });
      if (round < 3) await editorOf(page, round + 1);
      else await answer.getByText(/^Written by the offline speaker/).waitFor();
      const text = (await answer.locator('.turn-text').textContent()) ?? '';
      expect(mine).toContain(quoted(text));
    }

    await page.getByRole('region', { name: 'The judges’ scorecard' }).waitFor({ timeout: 30_000 });
    await saveRun(page);
    const path = await share(page, 0);

    // The shared card: the person against the model, and each round's writer once opened.
    await openShared(page, path);
    const facts = page.locator('.speakers-facts');
    expect(await facts.textContent()).toContain(`Written by ${WRITER} · Position: Strongly For`);
    expect(await facts.textContent()).toContain('Model: Offline speaker');
    const rounds = page.locator('.rounds');
    for (const [index, title] of ROUNDS.entries()) {
      const round = rounds.getByRole('region', { name: `Round ${index + 1}: ${title}` });
      await round
        .getByRole('article', { name: `Round ${index + 1} - First Speaker` })
        .getByText(`Written by ${WRITER}`, { exact: true })
        .waitFor();
    }
    const writers = await rounds.locator('.provenance').allTextContents();
    expect(writers.filter((line) => line === `Written by ${WRITER}`)).toHaveLength(3);
    expect(
      writers.filter((line) => line.startsWith('Written by the offline speaker')),
    ).toHaveLength(3);

    await page.goto('/community/ranking');
    const card = page
      .locator('.debate-card')
      .filter({ has: page.getByRole('heading', { name: TOPIC }) });
    await card.waitFor();
    expect(await card.textContent()).toContain(`${WRITER} (Strongly For) vs Offline speaker`);
    await card.getByRole('button', { name: 'View Debate' }).click();
    await card.getByText(`Written by ${WRITER}`, { exact: true }).first().waitFor();
    expect(await card.getByText(`Written by ${WRITER}`, { exact: true }).count()).toBe(3);
  }, 120_000);

  it('brings back the turn and its draft after a reload in the middle of the second turn, at phone width', async () => {
    const page = await session.open({ width: 360, height: 780 });
    await signUp(page, 'person-reload@example.org');
    await beginAgainstOffline(page);
    await writeTurn(page, 1);

    const editor = await editorOf(page, 2);
    const draft = 'Half of my rebuttal, typed before the page was reloaded';
    await editor.fill(draft);
    // At 360 px the model's turn is above the editor, and nothing scrolls sideways.
    const theirs = page.getByRole('article', { name: /^Second Speaker’s last turn/ });
    const above = (await theirs.boundingBox())?.y ?? Infinity;
    expect(above).toBeLessThan((await editor.boundingBox())?.y ?? 0);
    expect(await scrollsSideways(page)).toBe(false);

    await page.reload();
    const again = await editorOf(page, 2);
    expect(await again.inputValue()).toBe(draft);
    // The turns before it came back with it.
    await page
      .getByRole('article', { name: 'First Speaker, Constructive Arguments' })
      .getByText(`Written by ${WRITER}`, { exact: true })
      .waitFor();
    await theirs.waitFor();
    expect(await scrollsSideways(page)).toBe(false);

    // The run goes on from there: the rest of the turn, submitted, is answered.
    await again.fill(`${draft} ${sentences(2).join(' ')}`);
    await page.getByRole('button', { name: 'Submit turn' }).click();
    await editorOf(page, 3);
    // The draft goes once Submit turn's answer comes, which may follow the run's next turn
    // (it comes by another connection): waited for, not read at once.
    await page.waitForFunction(
      () => !Object.keys(window.localStorage).some((key) => /^debate-draft:.+:2$/.test(key)),
    );
  }, 120_000);
});
