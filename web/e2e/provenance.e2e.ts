import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';
import { confirmShare } from './support/debates.js';

const TOPIC = 'Should museums return artefacts to their countries of origin?';
const BOTH_OFFLINE =
  'Both speakers are written by the offline speaker: no AI model is called for this debate.';
const OFFLINE_TURN = /^Written by the offline speaker · \d+\.\d s$/;
/** Any model name: what a debate the offline speaker wrote must never show. */
const MODEL_NAME = /gpt/i;

/** The text a person reads in `locator`, controls' option texts included. */
async function shownText(locator: Locator): Promise<string> {
  return locator.evaluate((element) => (element as HTMLElement).innerText);
}

/** Downloads the Markdown export the page offers, and reads it. */
async function exportMarkdown(page: Page, scope: Page | Locator): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    scope.getByRole('button', { name: 'Export as Markdown' }).click(),
  ]);
  return readFileSync(await download.path(), 'utf8');
}

/** The judges' scorecard where a debate is shown: the offline judge's, a winner or a tie. */
async function expectOfflineScorecard(scope: Page | Locator) {
  const scorecard = scope.getByRole('region', { name: 'The judges’ scorecard' });
  await scorecard.waitFor();
  expect(await scorecard.locator('.verdict-headline').textContent()).toMatch(VERDICT);
  expect(await scorecard.locator('.judged-by').textContent()).toMatch(
    /^Judge: Offline judge \(fixed rules, no AI model\) · \d+\.\d s$/,
  );
  // The four criteria and the totals.
  expect(await scorecard.getByRole('row').count()).toBe(6);
}

/** The offline judge's verdict in a sentence: a winner and its total first, or a tie. */
const VERDICT = /^((First|Second) Speaker wins, \d+(\.\d+)? to \d+(\.\d+)?|A tie: .+)$/;
/** Its line on a card. */
const VERDICT_LINE = /^Judges: ((First|Second) Speaker|a tie,) \d+(\.\d+)? – \d+(\.\d+)?$/;

function expectOfflineExport(markdown: string) {
  expect(markdown).toContain("## Judges' scorecard");
  expect(markdown).toMatch(/\nJudged by Offline judge \(fixed rules, no AI model\), \d+\.\d s\n$/);
  expect(markdown).toMatch(/^- \*\*First Speaker\*\*: Offline speaker, /m);
  expect(markdown).toMatch(/^- \*\*Second Speaker\*\*: Offline speaker, /m);
  const rounds = markdown.split('\n').filter((line) => line.startsWith('Written by'));
  expect(rounds).toHaveLength(6);
  for (const line of rounds) expect(line).toMatch(OFFLINE_TURN);
  expect(markdown).not.toMatch(MODEL_NAME);
}

// npm start's defaults: no operator catalogue, so the offline speaker is the only model.
describe('who wrote a debate, on npm start’s defaults', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('says "Offline speaker" and shows the offline judge\'s scorecard on the engine, the history, the card, the page and the export', async () => {
    const { page } = session;
    await signUp(page, 'provenance@example.org');

    // The engine: the catalogue's one model in each select, who writes, each turn's writer.
    await page.goto('/engine');
    await page.getByRole('button', { name: 'Settings' }).last().waitFor();
    for (const settings of await page.getByRole('button', { name: 'Settings' }).all()) {
      await settings.click();
    }
    const selects = page.getByLabel('Model', { exact: true });
    expect(await selects.count()).toBe(2);
    for (const select of await selects.all()) {
      await select.locator('option').first().waitFor({ state: 'attached' });
      expect(await select.locator('option').allTextContents()).toEqual(['Offline speaker']);
      expect(await select.inputValue()).toBe('offline');
    }
    await page.getByLabel('Debate topic').fill(TOPIC);
    await page.getByRole('button', { name: 'Begin discussion' }).click();
    const panel = page.getByRole('region', { name: 'Save Your Debate' });
    await panel.waitFor({ timeout: 30_000 });
    expect(await page.locator('.writers-note').textContent()).toBe(BOTH_OFFLINE);
    const turns = await page.locator('.turn .provenance').allTextContents();
    expect(turns).toHaveLength(6);
    for (const line of turns) expect(line).toMatch(OFFLINE_TURN);
    // The judges' scorecard, after the Summary round.
    await expectOfflineScorecard(page);
    expect(await shownText(page.locator('main'))).not.toMatch(MODEL_NAME);

    await panel.getByRole('button', { name: 'Politics', exact: true }).click();
    await panel.getByRole('button', { name: 'Save Debate' }).click();
    await page.getByRole('status').getByText('Debate saved to your history!').waitFor();

    // The history: each speaker's model, each round's writer, the export.
    await page.goto('/community/history');
    const saved = page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: TOPIC }) });
    await saved.waitFor();
    const facts = await saved.locator('.speakers-facts dd').allTextContents();
    expect(facts).toHaveLength(2);
    for (const fact of facts) expect(fact).toMatch(/^Model: Offline speaker · Position: /);
    expect(await saved.locator('.verdict-line').textContent()).toMatch(VERDICT_LINE);
    await saved.getByRole('button', { name: 'View Debate' }).click();
    await saved.getByRole('article', { name: 'Round 1 - First Speaker' }).waitFor();
    const rounds = await saved.locator('.rounds .provenance').allTextContents();
    expect(rounds).toHaveLength(6);
    for (const line of rounds) expect(line).toMatch(OFFLINE_TURN);
    await expectOfflineScorecard(saved);
    expect(await shownText(saved)).not.toMatch(MODEL_NAME);
    expectOfflineExport(await exportMarkdown(page, saved));

    // Shared: the community card.
    await saved.getByRole('button', { name: 'Share with Community' }).click();
    await confirmShare(page);
    await saved.getByRole('button', { name: 'Shared with Community' }).waitFor();
    let card: Locator | null = null;
    for (let attempt = 0; attempt < 20 && !card; attempt += 1) {
      await page.goto('/community/ranking');
      await page.locator('.debate-list').waitFor();
      await page
        .locator('.debate-card, .empty-state')
        .first()
        .waitFor()
        .catch(() => undefined);
      const found = page
        .getByRole('article')
        .filter({ has: page.getByRole('heading', { name: TOPIC }) });
      if ((await found.count()) > 0) card = found;
      else await page.waitForTimeout(250);
    }
    if (!card) throw new Error(`${TOPIC} never reached the ranking`);
    expect(await card.locator('.speakers-line').textContent()).toMatch(
      /^Offline speaker \((Strongly For|Against)\) vs Offline speaker \((Strongly For|Against)\)$/,
    );
    expect(await card.locator('.verdict-line').textContent()).toMatch(VERDICT_LINE);
    expect(await shownText(card)).not.toMatch(MODEL_NAME);

    // The debate's page, and its export.
    await card.getByRole('link', { name: TOPIC }).click();
    await page.getByRole('heading', { level: 1, name: TOPIC }).waitFor();
    const pageFacts = await page.locator('.speakers-facts dd').allTextContents();
    expect(pageFacts).toHaveLength(2);
    for (const fact of pageFacts) expect(fact).toMatch(/^Model: Offline speaker · Position: /);
    const pageRounds = await page.locator('.rounds .provenance').allTextContents();
    expect(pageRounds).toHaveLength(6);
    for (const line of pageRounds) expect(line).toMatch(OFFLINE_TURN);
    await expectOfflineScorecard(page);
    expect(await shownText(page.locator('main'))).not.toMatch(MODEL_NAME);
    expectOfflineExport(await exportMarkdown(page, page));
  }, 120_000);
});
