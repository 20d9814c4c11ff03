import AxeBuilder from '@axe-core/playwright';
import { OFFLINE_JUDGE_ID } from '@debate/contracts/constants';
import { type FakeOpenAi, startFakeOpenAi } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { desktop, phone, useBrowser } from './support/browser.js';
import { confirmShare, openShared } from './support/debates.js';

const SCORECARD = 'The judges’ scorecard';
const BEFORE_QUESTION = 'Before you read: where do you stand on this motion?';
const TABLE = 'Each judge’s record, with 95% intervals';
const EMPTY =
  'No judged debates yet: the judges’ record appears once shared debates have been judged.';

/** The fake judges: one reads every debate in favour of the speaker it reads first. */
const FIRST = { id: 'judge-first', label: 'Judge First' };
const FAIR = { id: 'judge-fair', label: 'Judge Fair' };

/**
 * Writes a debate on /engine with each speaker's model, saves it and shares it from the
 * history, as a person would; answers its public page's path.
 */
async function writeAndShare(
  page: Page,
  topic: string,
  models: readonly [string, string],
): Promise<string> {
  await page.goto('/engine');
  await page.getByRole('button', { name: 'Settings' }).last().waitFor();
  for (const settings of await page.getByRole('button', { name: 'Settings' }).all()) {
    await settings.click();
  }
  const selects = await page.getByLabel('Model', { exact: true }).all();
  expect(selects).toHaveLength(2);
  for (const [index, model] of models.entries()) {
    await selects[index]?.locator(`option[value="${model}"]`).waitFor({ state: 'attached' });
    await selects[index]?.selectOption(model);
  }
  await page.getByLabel('Debate topic').fill(topic);
  await page.getByRole('button', { name: 'Begin discussion' }).click();
  const panel = page.getByRole('region', { name: 'Save Your Debate' });
  await panel.waitFor({ timeout: 45_000 });
  await page.getByRole('region', { name: SCORECARD }).waitFor();
  await panel.getByRole('button', { name: 'Ethics', exact: true }).click();
  await panel.getByRole('button', { name: 'Save Debate' }).click();
  await page.getByRole('status').getByText('Debate saved to your history!').waitFor();

  await page.goto('/community/history');
  const saved = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: topic }) });
  await saved.getByRole('button', { name: 'Share with Community' }).click();
  await confirmShare(page);
  const link = saved.getByRole('link', { name: 'Public page' });
  await link.waitFor();
  return (await link.getAttribute('href')) ?? '';
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

/**
 * Opens the Judges tab until every judge's row counts `debates` debates (the record is
 * recomputed in the background), and answers the rows.
 */
async function judgesOnceJudged(page: Page, debates: number): Promise<string[][]> {
  let rows: string[][] = [];
  for (let attempt = 0; attempt < 60; attempt += 1) {
    await page.goto('/community/judges');
    await page.getByRole('heading', { level: 2, name: 'Judges' }).waitFor();
    await page.locator('.judges table, .judges .empty-state').first().waitFor();
    const table = page.getByRole('table', { name: TABLE });
    if ((await table.count()) > 0) {
      rows = await rowsOf(table);
      const judges = rows.filter((row) => row[0] !== 'All judges');
      if (judges.length === 3 && judges.every((row) => row[1] === String(debates))) return rows;
    }
    await page.waitForTimeout(500);
  }
  throw new Error(
    `The Judges tab never showed ${debates} debates a judge: ${JSON.stringify(rows)}`,
  );
}

// The panel: the offline judge and two models of the operator's catalogue on OpenAI-compatible
// servers (local fakes of them: the edge of the world), one of which always favours the speaker
// it reads first. Each judge reads every debate, twice, sides swapped.
describe('the Judges tab', () => {
  let favoursFirst: FakeOpenAi;
  let fair: FakeOpenAi;
  beforeAll(async () => {
    favoursFirst = await startFakeOpenAi();
    favoursFirst.judgeFavoursFirst = true;
    fair = await startFakeOpenAi();
  });
  afterAll(async () => {
    await favoursFirst?.close();
    await fair?.close();
  });
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
      MODEL_CATALOG: JSON.stringify([
        { ...FIRST, baseUrl: favoursFirst.baseUrl, providerModel: 'judge-first' },
        { ...FAIR, baseUrl: fair.baseUrl, providerModel: 'judge-fair' },
      ]),
      JUDGE_MODELS: [OFFLINE_JUDGE_ID, FIRST.id, FAIR.id].join(','),
      JUDGE_PANEL_SIZE: '3',
    }),
  });

  /** The public pages of the debates shared by the second test, for the third. */
  const shared: string[] = [];

  it('says so before any debate is judged', async () => {
    const { page } = session;
    await page.goto('/community/ranking');
    await page
      .getByRole('navigation', { name: 'Community sections' })
      .getByRole('link', { name: 'Judges' })
      .click();
    await page.waitForURL('**/community/judges');
    await page.getByText(EMPTY).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.title()).toBe('Judges - AI Debate');
    expect(await violations(page)).toEqual([]);
  });

  it('shows each judge’s record and all judges’: every figure with its interval and count, or why not', async () => {
    const { page } = session;
    // Two accounts of two free debates each; each judge's model speaks in two debates, against
    // another's (the offline judge's: the offline speaker).
    await signUp(page, 'judges-author-1@example.org');
    shared.push(
      await writeAndShare(page, 'Should voting be compulsory?', [FIRST.id, 'offline']),
      await writeAndShare(page, 'Should space exploration be publicly funded?', [
        'offline',
        FAIR.id,
      ]),
    );
    const second = await session.open(desktop);
    await signUp(second, 'judges-author-2@example.org');
    shared.push(
      await writeAndShare(second, 'Should the voting age be lowered to 16?', [FIRST.id, FAIR.id]),
      await writeAndShare(second, 'Should cash be phased out?', ['offline', 'offline']),
    );
    // Both fake servers judged (and their models spoke).
    for (const server of [favoursFirst, fair]) {
      expect(
        server.requests.some((request) =>
          request.body.messages.some(
            (message) =>
              message.role === 'system' && message.content.startsWith('You are the judge'),
          ),
        ),
      ).toBe(true);
    }

    const rows = await judgesOnceJudged(second, 4);
    const table = second.getByRole('table', { name: TABLE });
    const headings = await table.locator('thead th').allTextContents();
    expect(headings.slice(0, 2)).toEqual(['Judge', 'Debates']);
    expect(headings).toHaveLength(12);
    expect(rows.map((row) => row[0]).sort()).toEqual(
      ['All judges', 'Judge Fair', 'Judge First', 'Offline judge fixed rules'].sort(),
    );
    expect(rows.at(-1)?.[0]).toBe('All judges');
    // Every figure: a value with its 95% interval (or, from a bootstrap of too few, why none),
    // or '—' and why no value; then its count.
    const figure = /^(?:\S.* (?:\[\S+, \S+\]|\(too few for an interval\))|— \S.*) · \d+ \S.*$/;
    const interval = /^\S.* \[\S+, \S+\] · \d+ \S.*$/;
    for (const row of rows) {
      expect(row).toHaveLength(12);
      for (const cell of row.slice(2)) expect(cell).toMatch(figure);
      // Position consistency, the first-read advantage, agreement between judges and
      // self-preference have data enough for their intervals.
      for (const column of [2, 3, 4, 6]) expect(row[column]).toMatch(interval);
    }
    // The judge that always favours the speaker it reads first never reads a debate the same
    // way twice.
    const first = rows.find((row) => row[0] === 'Judge First');
    expect(first?.[2]).toMatch(/^0% \[0%, \d+%\] · 4 debates$/);
    await second.getByText(/^Recomputed .+ from 4 judged debates\./).waitFor();
    for (const term of [
      'Position consistency',
      'Agreement between judges',
      'Self-preference',
      'Length bias',
    ]) {
      await second
        .getByRole('region', { name: 'What the figures mean' })
        .getByRole('term')
        .filter({ hasText: term })
        .waitFor();
    }
    expect(await violations(second)).toEqual([]);

    // On a phone the page does not scroll sideways: the table scrolls in its own box.
    const small = await session.open(phone);
    await small.goto('/community/judges');
    await small.getByRole('table', { name: TABLE }).waitFor();
    const overflow = await small.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const box = small.getByRole('region', { name: TABLE });
    expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    expect(await violations(small)).toEqual([]);
  }, 300_000);

  it('shows the readers’ verdict beside the judges’, and marks it when they disagree', async () => {
    const [path] = shared;
    if (!path) throw new Error('The second test shared no debate');
    // Where the judges stand: their winner, and which speaker argued For (as a visitor sees it).
    const visitor = await session.open(desktop);
    await openShared(visitor, path);
    const headline = (await visitor.locator('.verdict-headline').textContent()) ?? '';
    const positions = await visitor.locator('.speakers-facts dd').allTextContents();
    const forSpeaker = /Position: (?:Strongly )?For\b/.test(positions[0] ?? '')
      ? 'First Speaker'
      : 'Second Speaker';
    const judges = headline.startsWith('A tie')
      ? 'The judges: a tie'
      : `The judges: ${headline.startsWith(forSpeaker) ? 'For' : 'Against'} won (${headline.startsWith('First') ? 'First' : 'Second'} Speaker)`;
    // The readers, undecided before, all move to the side the judges did not pick.
    const readersSide = judges.startsWith('The judges: For') ? 'Against' : 'For';

    let page = visitor;
    for (let index = 1; index <= 5; index += 1) {
      page = await session.open(desktop);
      await signUp(page, `judges-reader-${index}@example.org`);
      await openShared(page, path);
      const question = page.getByRole('region', { name: BEFORE_QUESTION });
      await question.getByRole('button', { name: 'Undecided', exact: true }).click();
      const now = page.getByRole('region', { name: 'Where do you stand now?' });
      await now.getByRole('button', { name: new RegExp(`^${readersSide} \\d+$`) }).click();
      await now.locator('.vote-button.voted').waitFor();
    }

    // The last reader's page, afresh.
    await page.reload();
    const scorecard = page.getByRole('region', { name: SCORECARD });
    await scorecard.getByText(`The readers: ${readersSide} gained 5 minds`).waitFor();
    await scorecard.getByText(judges, { exact: true }).waitFor();
    await scorecard.getByText('Judges and readers disagree').waitFor();
    expect(await violations(page)).toEqual([]);

    // The judges' record counts the readers' side once it is recomputed: each judge's winner
    // on that debate against it.
    let all: string[] = [];
    for (let attempt = 0; attempt < 60 && !/^\d+%/.test(all[8] ?? ''); attempt += 1) {
      if (attempt > 0) await page.waitForTimeout(500);
      await page.goto('/community/judges');
      const table = page.getByRole('table', { name: TABLE });
      await table.waitFor();
      all = (await rowsOf(table)).find((row) => row[0] === 'All judges') ?? [];
    }
    expect(all[8]).toMatch(/^\d+% \[\S+, \S+\] · 3 verdicts$/);
    expect(all[9]).toMatch(/ · 3 verdicts$/);
  }, 240_000);
});
