import AxeBuilder from '@axe-core/playwright';
import { type FakeOpenAi, startFakeOpenAi } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { desktop, useBrowser } from './support/browser.js';
import { confirmShare } from './support/debates.js';

const APART = 'Rated apart: debates written by the offline speaker';

/**
 * Writes a debate on /engine with each speaker's model, style and personality hints (none
 * unless given), saves it and shares it from the history, as a person would.
 */
async function writeAndShare(
  page: Page,
  topic: string,
  speakers: ReadonlyArray<{ model: string; style: string; personality?: string }>,
): Promise<void> {
  await page.goto('/engine');
  await page.getByRole('button', { name: 'Settings' }).last().waitFor();
  for (const settings of await page.getByRole('button', { name: 'Settings' }).all()) {
    await settings.click();
  }
  const models = await page.getByLabel('Model', { exact: true }).all();
  const styles = await page.getByLabel('Rhetoric style').all();
  const hints = await page.getByLabel('Personality hints').all();
  expect(models).toHaveLength(2);
  for (const [index, { model, style, personality }] of speakers.entries()) {
    await models[index]?.locator(`option[value="${model}"]`).waitFor({ state: 'attached' });
    await models[index]?.selectOption(model);
    await styles[index]?.selectOption(style);
    if (personality) await hints[index]?.fill(personality);
  }
  await page.getByLabel('Debate topic').fill(topic);
  await page.getByRole('button', { name: 'Begin discussion' }).click();
  const panel = page.getByRole('region', { name: 'Save Your Debate' });
  await panel.waitFor({ timeout: 45_000 });
  await page.getByRole('region', { name: 'The judges’ scorecard' }).waitFor();
  await panel.getByRole('button', { name: 'Technology', exact: true }).click();
  await panel.getByRole('button', { name: 'Save Debate' }).click();
  await page.getByRole('status').getByText('Debate saved to your history!').waitFor();

  await page.goto('/community/history');
  const saved = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: topic }) });
  await saved.getByRole('button', { name: 'Share with Community' }).click();
  await confirmShare(page);
  await saved.getByRole('button', { name: 'Shared with Community' }).waitFor();
}

/**
 * What the ranking card of `topic` says of its rating (after 'Shared … · '), once the
 * leaderboard has read its debate (recomputed in the background: reloads until then).
 */
async function cardRating(page: Page, topic: string): Promise<string> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    await page.goto('/community/ranking');
    const line = page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: topic }) })
      .locator('.shared-line');
    await line.waitFor();
    const rating = (await line.textContent())?.split(' · ')[1];
    if (rating) return rating;
    await page.waitForTimeout(250);
  }
  throw new Error(`The card of "${topic}" never said whether it is rated`);
}

/** A table's body rows, each as its cells' texts. */
async function rowsOf(table: Locator): Promise<string[][]> {
  const rows = await table.locator('tbody tr').all();
  return Promise.all(rows.map((row) => row.locator('th, td').allTextContents()));
}

/** The serious and critical axe-core violations on the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}) ${violation.help}`);
}

/** Opens the leaderboard until `table` shows (the boards are recomputed in the background). */
async function openWhenShown(page: Page, table: () => Locator): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    await page.goto('/community/leaderboard');
    await page.getByRole('heading', { level: 2, name: 'Leaderboard' }).waitFor();
    await page
      .locator('.leaderboard table, .leaderboard .empty-state')
      .first()
      .waitFor()
      .catch(() => undefined);
    if ((await table().count()) > 0) return;
    await page.waitForTimeout(250);
  }
  throw new Error('The leaderboard never showed the shared debates');
}

// Two models of the operator's catalogue on an OpenAI-compatible server (a local fake of one:
// the edge of the world), and the offline speaker; the offline judge judges.
describe('the leaderboard tab', () => {
  let server: FakeOpenAi;
  beforeAll(async () => {
    server = await startFakeOpenAi();
  });
  afterAll(async () => {
    await server?.close();
  });
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
      MODEL_CATALOG: JSON.stringify([
        { id: 'gpt-4o', label: 'GPT-4o', baseUrl: server.baseUrl, providerModel: 'gpt-4o' },
        { id: 'llama', label: 'Llama 3.1', baseUrl: server.baseUrl, providerModel: 'llama3.1' },
      ]),
    }),
  });

  it('rates the models and styles of shared, judged debates, the offline speaker’s apart', async () => {
    const { page } = session;
    // Before any debate is shared: what fills it.
    await page.goto('/community/leaderboard');
    const hubTabs = page.getByRole('navigation', { name: 'Community sections' });
    expect(await hubTabs.getByRole('link').allTextContents()).toEqual([
      'Community Forum',
      'Account Activity',
      'Leaderboard',
      'Judges',
    ]);
    await page.getByText(/^No ratings yet\. The leaderboard is made of judged debates/).waitFor();

    await signUp(page, 'leaderboard@example.org');
    await writeAndShare(page, 'Should cities ban cars from their centres?', [
      { model: 'gpt-4o', style: 'formal' },
      { model: 'llama', style: 'casual' },
    ]);
    await writeAndShare(page, 'Should homework be abolished?', [
      { model: 'offline', style: 'factual' },
      { model: 'gpt-4o', style: 'emotional' },
    ]);
    // The catalogue's models really wrote: their server was asked for their turns.
    expect(server.requests.map((request) => request.body.model)).toEqual(
      expect.arrayContaining(['gpt-4o', 'llama3.1']),
    );

    // Models: GPT-4o against Llama 3.1, and the offline speaker's debate apart.
    const models = () => page.getByRole('table', { name: 'Models: 1 judged debate' });
    const apart = () => page.getByRole('region', { name: APART }).getByRole('table');
    await openWhenShown(page, () => apart());
    await models().waitFor();
    const headings = await models().locator('thead th').allTextContents();
    expect(headings).toEqual([
      'Rank',
      'Model',
      'Rating',
      '95% interval',
      'Debates',
      'Pairs',
      'Audience',
    ]);
    const modelRows = await rowsOf(models());
    expect(modelRows.map((row) => row[1]).sort()).toEqual(['GPT-4o', 'Llama 3.1']);
    for (const [index, row] of modelRows.entries()) {
      expect(row[0]).toBe(String(index + 1));
      expect(row[2]).toMatch(/^\d{3,4}$/);
      expect(row[3]).toMatch(/^\d{3,4} – \d{3,4}$/);
      expect(row.slice(4)).toEqual(['1', '0', '—']);
    }
    const apartRows = await rowsOf(apart());
    expect(apartRows.map((row) => row[1]).sort()).toEqual(['GPT-4o', 'Offline speaker']);
    expect(await violations(page)).toEqual([]);

    // Controlled for length and for where the room started: another board, kept in the address
    // (a reload keeps it; the controlled boards are stored after the others: reloads until then).
    const note = page.getByText(
      /^Ratings controlled for length \(Bradley-Terry with the word-count/,
    );
    await page.getByRole('checkbox', { name: 'Control for length' }).check();
    await page.waitForURL(/[?&]controlled=1(&|$)/);
    for (let attempt = 0; attempt < 40 && (await note.count()) === 0; attempt += 1) {
      await page.waitForTimeout(250);
      await page.reload();
      await page.getByRole('heading', { level: 2, name: 'Leaderboard' }).waitFor();
    }
    await note.waitFor();
    expect(await page.getByRole('checkbox', { name: 'Control for length' }).isChecked()).toBe(true);
    expect((await rowsOf(models())).map((row) => row[1]).sort()).toEqual(['GPT-4o', 'Llama 3.1']);
    expect((await rowsOf(apart())).map((row) => row[1]).sort()).toEqual([
      'GPT-4o',
      'Offline speaker',
    ]);
    expect(await violations(page)).toEqual([]);
    await page.getByRole('checkbox', { name: 'Control for length' }).uncheck();
    await note.waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.has('controlled')).toBe(false);

    // Rhetoric styles: formal against casual; factual against emotional apart.
    await page.getByRole('button', { name: 'Rhetoric styles' }).click();
    const styles = page.getByRole('table', { name: 'Rhetoric styles: 1 judged debate' });
    await styles.waitFor();
    expect((await rowsOf(styles)).map((row) => row[1]).sort()).toEqual(['Casual', 'Formal']);
    expect((await rowsOf(apart())).map((row) => row[1]).sort()).toEqual(['Emotional', 'Factual']);

    // Only completed side-swapped pairs: none yet.
    await page.getByRole('checkbox', { name: 'Only side-swapped pairs' }).check();
    await page.getByText(/^No completed side-swapped pairs yet\./).waitFor();

    // At 360 px the page does not scroll sideways: a table scrolls in its own box.
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByRole('checkbox', { name: 'Only side-swapped pairs' }).uncheck();
    await page.getByRole('button', { name: 'Models', exact: true }).click();
    await models().waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const box = page.getByRole('region', { name: 'Models: 1 judged debate' });
    expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    expect(await violations(page)).toEqual([]);

    // Another account's debate whose speaker was given personality hints is not rated, and its
    // card and its page say so (the first account's free debates are spent).
    const other = await session.open(desktop);
    await signUp(other, 'hinted@example.org');
    const hinted = 'Should zoos be closed?';
    await writeAndShare(other, hinted, [
      { model: 'gpt-4o', style: 'formal', personality: 'a retired judge' },
      { model: 'llama', style: 'casual' },
    ]);
    expect(await cardRating(other, hinted)).toBe('Not rated: personality hints');
    expect(await cardRating(other, 'Should cities ban cars from their centres?')).toBe('Rated');
    await other.getByRole('link', { name: hinted }).click();
    await other.getByRole('heading', { level: 1, name: hinted }).waitFor();
    expect(await other.locator('.shared-line').textContent()).toMatch(
      / · Not rated: personality hints$/,
    );
    await openWhenShown(other, () =>
      other.getByText(/Not rated: 1 debate with personality hints\./),
    );
    expect(
      await rowsOf(other.getByRole('table', { name: 'Models: 1 judged debate' })),
    ).toHaveLength(2);
  }, 240_000);
});
