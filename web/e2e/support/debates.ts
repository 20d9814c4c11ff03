import type { Locator, Page } from 'playwright-core';

/** Generates a debate on /engine and saves it: the run's Save panel, then the toast. */
export async function generateAndSave(page: Page, topic: string): Promise<void> {
  await page.goto('/engine');
  await page.getByLabel('Debate topic').fill(topic);
  await page.getByRole('button', { name: 'Begin discussion' }).click();
  await saveRun(page);
}

/** Saves the run the engine shows, once it is complete (and judged). */
export async function saveRun(page: Page): Promise<void> {
  const panel = page.getByRole('region', { name: 'Save Your Debate' });
  await panel.waitFor({ timeout: 30_000 });
  await page.getByRole('region', { name: 'The judges’ scorecard' }).waitFor();
  await panel.getByRole('button', { name: 'Science', exact: true }).click();
  await panel.getByRole('button', { name: 'Save Debate' }).click();
  await page.getByRole('status').getByText('Debate saved to your history!').waitFor();
}

/** The question the history asks before it shares a debate. */
export function shareDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Share this debate with the community?' });
}

/** Answers the question before sharing with Share (after 'Share with Community' was clicked). */
export async function confirmShare(page: Page): Promise<void> {
  await shareDialog(page).getByRole('button', { name: 'Share', exact: true }).click();
}

/** Shares the history card at `index` (newest first) and answers its public page's path. */
export async function share(page: Page, index: number): Promise<string> {
  await page.goto('/community/history');
  const card = page.locator('.debate-card').nth(index);
  await card.waitFor();
  await card.getByRole('button', { name: 'Share with Community' }).click();
  await confirmShare(page);
  const link = card.getByRole('link', { name: 'Public page' });
  await link.waitFor();
  return (await link.getAttribute('href')) ?? '';
}

/** Opens `path` until the community has the copy (sharing is an event away). */
export async function openShared(page: Page, path: string): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    await page.goto(path);
    await page.locator('h1').first().waitFor();
    if ((await page.getByRole('heading', { name: 'Debate not found.' }).count()) === 0) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`${path} never showed the debate`);
}

/** Generates, saves and shares a debate, then opens its public page; answers the page's path. */
export async function publishAndOpen(page: Page, topic: string): Promise<string> {
  await generateAndSave(page, topic);
  const path = await share(page, 0);
  await openShared(page, path);
  return path;
}
