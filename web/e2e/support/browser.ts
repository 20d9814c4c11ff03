import { afterAll, afterEach, beforeAll, beforeEach } from '@jest/globals';
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
  /** Where the pages open relative addresses: the app's URL, or at the `host` asked for. */
  readonly baseUrl: string;
  /** A fresh page (own context: no storage shared between tests). */
  readonly page: Page;
  /** Opens a new page at the given viewport, replacing `page`. */
  open(viewport: { width: number; height: number }, init?: () => void): Promise<Page>;
  /**
   * The Content-Security-Policy violations the test's pages reported so far, taken: a test that
   * provokes one on purpose takes it; any other fails the test.
   */
  takeCspViolations(): string[];
}

/**
 * Collects what the context's pages report against the Content-Security-Policy: the
 * `securitypolicyviolation` events of every document, and Chromium's console errors that name
 * the policy ("Refused to …", "Framing … violates …"; they also cover what no listener sees,
 * such as a page refused as a frame).
 */
async function collectCspViolations(context: BrowserContext, into: string[]): Promise<void> {
  await context.exposeBinding('reportCspViolation', (_source, violation: string) => {
    into.push(violation);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : '';
      const { reportCspViolation } = window as unknown as {
        reportCspViolation(violation: string): Promise<void>;
      };
      void reportCspViolation(
        `${event.effectiveDirective} refused ${event.blockedURI || 'inline'}${where}`,
      );
    });
  });
  context.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) into.push(message.text());
  });
}

interface BrowserOptions {
  /** The platform's extra environment. */
  readonly env?: () => Record<string, string>;
  /**
   * The address the browser reaches the platform at, such as this machine's network address
   * (a phone on the LAN trying `npm start`): the platform then listens on every interface
   * (HOST=0.0.0.0) and the pages open their relative addresses on this host. By default the
   * platform listens on loopback and the pages go to the URL it prints.
   */
  readonly host?: () => string;
}

/** `url` with its host replaced by `host` (an IPv6 address in brackets). */
function atHost(url: string, host: string): string {
  const moved = new URL(url);
  moved.hostname = host.includes(':') ? `[${host}]` : host;
  return moved.origin;
}

/**
 * Starts the built platform and Chromium once per file, and gives each test a page of its own.
 */
export function useBrowser(options: BrowserOptions = {}): BrowserSession {
  let app: RunningApp;
  let baseUrl: string;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let page: Page;
  const cspViolations: string[] = [];

  const session: BrowserSession = {
    get app() {
      return app;
    },
    get baseUrl() {
      return baseUrl;
    },
    get page() {
      return page;
    },
    async open(viewport, init) {
      await context?.close();
      context = await browser.newContext({ viewport, baseURL: baseUrl });
      // Below jest's 30 s: a step that hangs fails naming itself, not as the test's timeout.
      context.setDefaultTimeout(20_000);
      await collectCspViolations(context, cspViolations);
      if (init) await context.addInitScript(init);
      page = await context.newPage();
      return page;
    },
    takeCspViolations() {
      return cspViolations.splice(0);
    },
  };

  // Room for a cluster to build and start (E2E_PLATFORM=cluster, support/platform.ts).
  beforeAll(async () => {
    const host = options.host?.();
    app = await startApp({ ...(host ? { HOST: '0.0.0.0' } : {}), ...options.env?.() });
    baseUrl = host ? atHost(app.url, host) : app.url;
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  }, 200_000);

  beforeEach(async () => {
    await session.open(desktop);
  });

  // Every page runs under the gateway's Content-Security-Policy: one violation fails the test.
  afterEach(() => {
    const violations = session.takeCspViolations();
    if (violations.length > 0) {
      throw new Error(`The page reported CSP violations:\n${violations.join('\n')}`);
    }
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  return session;
}
