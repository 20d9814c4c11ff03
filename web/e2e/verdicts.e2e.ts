import { describe, expect, it } from '@jest/globals';
import { signUp } from './support/accounts.js';
import { desktop, useBrowser } from './support/browser.js';
import { generateAndSave, openShared, saveRun, share } from './support/debates.js';

const BEFORE_QUESTION = 'Before you read: where do you stand on this motion?';

// npm start's defaults: the offline speaker writes, the offline judge scores.
describe('verdicts in the browser', () => {
  const session = useBrowser({
    env: () => ({
      OFFLINE_TOKENS_PER_SECOND: '2000',
      OFFLINE_FIRST_TOKEN_MS: '0',
      TURN_PAUSE_MS: '0',
    }),
  });

  it('asks readers where they stand first, and shows minds changed once five gave both', async () => {
    const topic = 'Should homework be abolished in primary schools?';
    await signUp(session.page, 'author-minds@example.org');
    await generateAndSave(session.page, topic);
    const path = await share(session.page, 0);

    const readers: Array<[string, string]> = [
      ['For', 'For'],
      ['For', 'Against'],
      ['Against', 'Against'],
      ['Against', 'Against'],
      ['Undecided', 'Against'],
    ];
    for (const [index, [before, after]] of readers.entries()) {
      const page = await session.open(desktop);
      await signUp(page, `reader-${index}@example.org`);
      await openShared(page, path);
      // The question comes first: no rounds, no scorecard until it is answered or skipped.
      const question = page.getByRole('region', { name: BEFORE_QUESTION });
      await question.waitFor();
      expect(await page.getByRole('article', { name: 'Round 1 - First Speaker' }).count()).toBe(0);
      expect(await page.getByRole('region', { name: 'The judges’ scorecard' }).count()).toBe(0);
      await question.getByRole('button', { name: before, exact: true }).click();
      await page.getByRole('article', { name: 'Round 1 - First Speaker' }).waitFor();
      await page.getByRole('region', { name: 'The judges’ scorecard' }).waitFor();
      const now = page.getByRole('region', { name: 'Where do you stand now?' });
      await now.getByRole('button', { name: new RegExp(`^${after} \\d+$`) }).click();
      await now.locator('.vote-button.voted').waitFor();
      const minds = page.getByRole('region', { name: 'Minds changed' });
      if (index < 4) {
        await minds
          .getByText(
            `${index + 1} ${index === 0 ? 'reader has' : 'readers have'} said where they stood before and after reading; shown from 5.`,
          )
          .waitFor();
      } else {
        await minds.getByText('Against wins the room by gain').waitFor();
        const rows = await minds.getByRole('row').allInnerTexts();
        expect(rows.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual([
          'Side Before After Gain',
          'For 40% 20% -20 pts',
          'Against 40% 80% +40 pts',
          'Undecided 20% — —',
        ]);
      }
    }

    // Asked once: back on the page, the rounds straight away.
    await session.page.reload();
    await session.page.getByRole('article', { name: 'Round 1 - First Speaker' }).waitFor();
    expect(await session.page.getByRole('region', { name: BEFORE_QUESTION }).count()).toBe(0);

    // The card on the ranking says it in a line.
    await session.page.goto('/community/ranking');
    const card = session.page
      .getByRole('article')
      .filter({ has: session.page.getByRole('heading', { name: topic }) });
    await card.waitFor();
    expect(await card.locator('.minds-line').textContent()).toBe(
      'Minds changed: For 40% → 20% (-20) · Against 40% → 80% (+40) · Against wins the room by gain',
    );
  }, 180_000);

  it('starts a rematch from the history, saves it, and shows the two as a pair', async () => {
    const { page } = session;
    const topic = 'Should cities charge cars to enter their centres?';
    await signUp(page, 'author-rematch@example.org');
    await generateAndSave(page, topic);

    await page.goto('/community/history');
    await page.getByRole('button', { name: 'Rematch, sides swapped' }).click();
    await page.waitForURL('**/engine');
    await page.locator('.rematch-note').waitFor();
    expect(await page.getByLabel('Debate topic').inputValue()).toBe(topic);
    await saveRun(page);

    await page.goto('/community/history');
    await page.getByText('2 debates').waitFor();
    const rematch = page.locator('.debate-card').nth(0);
    expect(await rematch.locator('.rematch-line').textContent()).toBe(
      'The side-swapped rematch of an earlier debate',
    );
    const rematchPath = await share(page, 0);
    const firstPath = await share(page, 1);

    await openShared(page, firstPath);
    const pair = page.getByRole('region', { name: 'Its rematch, the sides swapped' });
    await pair.waitFor({ timeout: 10_000 }).catch(async () => {
      // The rematch's copy may arrive a moment after the first's.
      await page.reload();
      await pair.waitFor();
    });
    expect(await pair.getByRole('link', { name: 'Read the rematch' }).getAttribute('href')).toBe(
      rematchPath,
    );
    await pair.getByRole('link', { name: 'Read the rematch' }).click();
    await page
      .getByRole('region', { name: 'The debate this one rematches' })
      .getByRole('link', { name: 'Read the first debate' })
      .waitFor();
  }, 120_000);
});
