// npm run screenshots: the README's and docs' pictures of the product (docs/images/*.png), taken
// from the built platform as `npm start` runs it (the five example debates seeded), in Debian's
// Chromium: a new user signs up, has the offline speaker write a debate on /engine (pictured while
// it is being written), saves and shares it; then the forum and the leaderboard. Each screen at
// 1280 and 390 px wide, light and dark: `<screen>-<width>-<scheme>.png`. Run it again after a
// change to what those screens show.
// `--out <dir>` writes the pictures there instead of docs/images; `--every-page` adds whole-page
// pictures of the engine, the ranking, the debate page, the history and the account, at both widths
// and in light and dark mode: taken before and after a change to the styles, they show what moved.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromiumArgs, chromiumPath } from './chromium.mjs';
import { buildAll, ensureInstalled, root, startPlatformProcess } from './workspace.mjs';

ensureInstalled();
buildAll();
const { chromium } = await import('playwright-core');

const TOPIC = 'Should cities ban private cars from their centres?';
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const { values: options } = parseArgs({
  options: { out: { type: 'string' }, 'every-page': { type: 'boolean', default: false } },
});
const out = options.out ? resolve(options.out) : join(root, 'docs/images');
mkdirSync(out, { recursive: true });

const platform = await startPlatformProcess({
  // Slow enough that the debate is still being written while the engine is pictured.
  OFFLINE_TOKENS_PER_SECOND: '20',
  OFFLINE_FIRST_TOKEN_MS: '0',
  TURN_PAUSE_MS: '0',
  SEED_EXAMPLES: 'true',
});
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });

/**
 * `name` at each width, light and dark, as the page shows it now: scrolled to its top, or to the
 * top of the element `selector` names (below the navigation bar).
 */
async function pictureEverySize(page, name, selector) {
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await page.evaluate((shown) => {
        const top = shown
          ? globalThis.document.querySelector(shown)?.getBoundingClientRect().top
          : undefined;
        const bar =
          globalThis.document.querySelector('header')?.getBoundingClientRect().height ?? 0;
        globalThis.scrollTo(0, top === undefined ? 0 : globalThis.scrollY + top - bar - 16);
      }, selector);
      const file = join(out, `${name}-${viewport.width}-${colorScheme}.png`);
      await page.screenshot({ path: file, animations: 'disabled' });
    }
  }
  await page.setViewportSize(WIDTHS[0]);
  await page.emulateMedia({ colorScheme: 'light' });
}

try {
  const context = await browser.newContext({ viewport: WIDTHS[0], baseURL: platform.url });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Create one' }).click();
  await page.getByLabel('Email').fill('ada@example.org');
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  await page.waitForURL('**/account');

  await page.goto('/engine');
  await page.getByLabel('Debate topic').fill(TOPIC);
  await page.getByRole('button', { name: 'Begin discussion' }).click();
  // Mid-debate: the first round written, the second being written.
  await page.getByRole('region', { name: 'Round 2: Rebuttal' }).waitFor({ timeout: 60_000 });
  await pictureEverySize(page, 'engine', '.results');
  const panel = page.getByRole('region', { name: 'Save Your Debate' });
  await panel.waitFor({ timeout: 120_000 });
  for (const category of ['Environment', 'Politics']) {
    await panel.getByRole('button', { name: category, exact: true }).click();
  }
  await panel.getByRole('button', { name: 'Save Debate' }).click();
  await page.getByRole('status').getByText('Debate saved to your history!').waitFor();

  await page.goto('/community/history');
  const saved = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: TOPIC }) });
  await saved.getByRole('button', { name: 'Share with Community' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Share', exact: true }).click();
  await saved.getByRole('button', { name: 'Shared with Community' }).waitFor();

  // The shared copy reaches the ranking through the event log: a moment later.
  for (let attempt = 0; ; attempt += 1) {
    await page.goto('/community/ranking');
    await page.locator('.debate-list').waitFor();
    if ((await page.getByRole('heading', { name: TOPIC }).count()) > 0) break;
    if (attempt > 40) throw new Error('the shared debate never reached the ranking');
    await page.waitForTimeout(250);
  }
  await page.waitForLoadState('networkidle');
  await pictureEverySize(page, 'forum');

  await page.goto('/community/leaderboard');
  await page.getByRole('table').first().waitFor();
  await page.waitForLoadState('networkidle');
  await pictureEverySize(page, 'leaderboard');

  if (options['every-page']) {
    const debatePath = await page.getByRole('link', { name: TOPIC }).getAttribute('href');
    // The phone signs in with the desktop's cookies as they are when it starts: each page load
    // spends the refresh cookie and sets the next one.
    const signedInPhone = async () => {
      const phoneContext = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        baseURL: platform.url,
        storageState: await context.storageState(),
      });
      return phoneContext.newPage();
    };
    for (const width of ['desktop', 'phone']) {
      const tab = width === 'desktop' ? page : await signedInPhone();
      const shown = {
        engine: ['/engine', tab.getByLabel('Debate topic')],
        ranking: ['/community/ranking', tab.getByRole('heading', { name: TOPIC })],
        debate: [debatePath, tab.getByRole('heading', { name: TOPIC })],
        history: ['/community/history', tab.getByRole('heading', { name: TOPIC })],
        account: ['/account', tab.getByRole('heading', { name: 'Usage Statistics' })],
      };
      for (const [name, [path, loaded]] of Object.entries(shown)) {
        await tab.goto(path);
        await loaded.first().waitFor();
        await tab.waitForLoadState('networkidle');
        for (const colorScheme of ['light', 'dark']) {
          await tab.emulateMedia({ colorScheme });
          const file = join(out, `${name}-${width}-${colorScheme}.png`);
          await tab.screenshot({ path: file, fullPage: true, animations: 'disabled' });
        }
      }
    }
  }
  process.stdout.write(`screenshots written to ${out}\n`);
} finally {
  await browser.close();
  platform.child.kill('SIGTERM');
}
