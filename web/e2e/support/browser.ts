import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type RunningApp, startApp } from './platform.js';

/** Debian's Chromium, with the flags this project's machines need (docs/testing.md). */
export const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const desktop = { width: 1280, height: 800 };
export const phone = { width: 390, height: 844 };

export interface BrowserSession {
  readonly app: RunningApp;
  /** A fresh page (own context: no storage shared between tests). */
  readonly page: Page;
  /** Opens a new page at the given viewport, replacing `page`. */
  open(viewport: { width: number; height: number }, init?: () => void): Promise<Page>;
}

/**
 * Starts the built platform and Chromium once per file, and gives each test a page of its own.
 */
export function useBrowser(options: { env?: () => Record<string, string> } = {}): BrowserSession {
  let app: RunningApp;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let page: Page;

  const session: BrowserSession = {
    get app() {
      return app;
    },
    get page() {
      return page;
    },
    async open(viewport, init) {
      await context?.close();
      context = await browser.newContext({ viewport, baseURL: app.url });
      // Below jest's 30 s: a step that hangs fails naming itself, not as the test's timeout.
      context.setDefaultTimeout(20_000);
      if (init) await context.addInitScript(init);
      page = await context.newPage();
      return page;
    },
  };

  beforeAll(async () => {
    app = await startApp(options.env?.() ?? {});
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  });

  beforeEach(async () => {
    await session.open(desktop);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  return session;
}
