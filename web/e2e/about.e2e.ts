import { describe, expect, it } from '@jest/globals';
import { useBrowser } from './support/browser.js';

describe('/about', () => {
  const session = useBrowser();

  it('switches between its three tabs by mouse', async () => {
    const { page } = session;
    await page.goto('/about');
    const tabs = page.getByRole('tab');
    await tabs.first().waitFor(); // the page loads on demand
    expect(await tabs.allTextContents()).toEqual(['The Philosophy', 'The Science', 'The Backers']);
    const panel = page.getByRole('tabpanel');
    expect(await panel.getByRole('heading', { level: 2 }).textContent()).toBe('The Philosophy');

    await page.getByRole('tab', { name: 'The Science' }).click();
    expect(await panel.getByRole('heading', { level: 2 }).textContent()).toBe('The Science');
    // What runs here, from the catalogue: the platform's defaults have the offline speaker alone,
    // writing in one pass.
    await panel
      .getByText('Offline speaker writes each speech in one pass, without a team.')
      .waitFor();
    const science = await panel.textContent();
    expect(science).toContain('Agent4Debate');
    expect(science).toContain('200');
    expect(science).toContain('66');

    await page.getByRole('tab', { name: 'The Backers' }).click();
    expect(await panel.textContent()).toContain('We currently do not accept donations.');
  });

  it('is operable from the keyboard alone', async () => {
    const { page } = session;
    await page.goto('/about');
    await page.getByRole('tab', { name: 'The Philosophy' }).focus();
    await page.keyboard.press('ArrowRight');
    const selected = page.getByRole('tab', { selected: true });
    expect(await selected.textContent()).toBe('The Science');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('The Science');
    await page.keyboard.press('End');
    expect(await selected.textContent()).toBe('The Backers');
    await page.keyboard.press('ArrowRight');
    expect(await selected.textContent()).toBe('The Philosophy');
  });
});
