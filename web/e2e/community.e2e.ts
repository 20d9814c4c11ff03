import { describe, expect, it } from '@jest/globals';
import { desktop, useBrowser } from './support/browser.js';

const MAIN = 'Humans discuss here, inspired and guided by ever scrutinizable AI.';
const SHORT = 'think for yourself';
const HISTORY = 'Your debate generations are accessible only to you.';

/** Pins Math.random in the page, so the 75/25 tagline choice is decided by the test. */
function pinRandom(value: number) {
  return new Function(`Math.random = () => ${value};`) as () => void;
}

describe('the community hub', () => {
  const session = useBrowser();

  it.each([
    [0.1, MAIN],
    [0.9, SHORT],
  ])('shows the forum tagline for a draw of %d', async (draw, expected) => {
    const page = await session.open(desktop, pinRandom(draw));
    await page.goto('/community/ranking');
    expect(await page.locator('.tagline').textContent()).toBe(expected);
    expect(
      await page.getByRole('link', { name: 'Community Forum' }).getAttribute('aria-current'),
    ).toBe('page');
  });

  it('shows the private tagline on the Account Activity tab, and switches back', async () => {
    const page = await session.open(desktop, pinRandom(0.1));
    await page.goto('/community/ranking');
    await page.getByRole('link', { name: 'Account Activity' }).click();
    await page.waitForURL('**/community/history');
    // The tab's page may still be loading when the address changes: wait for its render.
    await page.getByRole('heading', { name: 'Your Account Activity' }).waitFor();
    expect(await page.locator('.tagline').textContent()).toBe(HISTORY);
    await page.getByRole('link', { name: 'Community Forum' }).click();
    await page.waitForURL('**/community/ranking');
    await page.getByRole('combobox', { name: 'Sort' }).waitFor();
    expect(await page.locator('.tagline').textContent()).toBe(MAIN);
  });
});
