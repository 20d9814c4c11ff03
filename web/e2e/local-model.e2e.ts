import { tinyModelFile, untilPasses } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { signUp } from './support/accounts.js';
import { useBrowser } from './support/browser.js';

/**
 * npm start's local model, as a person meets it (docs/local-model.md): the embedded model server
 * in the platform's process on the tests' tiny model (random weights: what is asserted is the
 * structure, never the words), its download as a new user sees it on /engine, and a machine
 * without network. Each part is one platform of its own.
 */
const LABEL = 'Local: Tiny random debate model';
const OFFLINE = 'Offline speaker';
const LOCAL_ID = 'local';
const OFFLINE_ID = 'offline';
const TOPIC = 'Should every town keep a public library open on Sundays?';
const PROGRESS =
  /^The local model is downloading: (\d{1,3}) % — debates use the offline speaker until it is ready$/;
const FETCH_FAILED = 'The local model could not be fetched';

/** /engine with both speakers' settings open: their model selects, once the catalogue is in. */
async function modelSelects(page: Page): Promise<Locator[]> {
  await page.goto('/engine');
  await page.getByRole('button', { name: 'Settings' }).last().waitFor();
  for (const settings of await page.getByRole('button', { name: 'Settings' }).all()) {
    await settings.click();
  }
  const selects = await page.getByLabel('Model', { exact: true }).all();
  expect(selects).toHaveLength(2);
  for (const select of selects) {
    await select.locator('option').first().waitFor({ state: 'attached' });
  }
  return selects;
}

/** Each select's options, and the one chosen. */
async function offered(selects: Locator[]) {
  return Promise.all(
    selects.map(async (select) => ({
      options: await select.locator('option').allTextContents(),
      value: await select.inputValue(),
    })),
  );
}

/** Both speakers offered the local model first, and given it by default. */
async function expectLocalFirst(selects: Locator[]) {
  for (const { options, value } of await offered(selects)) {
    expect(options[0]).toBe(LABEL);
    expect(options).toContain(OFFLINE);
    expect(value).toBe(LOCAL_ID);
  }
}

/** Both speakers offered only the offline speaker, as without a local model. */
async function expectOfflineOnly(selects: Locator[]) {
  for (const { options, value } of await offered(selects)) {
    expect(options).toEqual([OFFLINE]);
    expect(value).toBe(OFFLINE_ID);
  }
}

/** Downloads the Markdown export the page offers, and reads it. */
async function exportMarkdown(page: Page, scope: Locator): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    scope.getByRole('button', { name: 'Export as Markdown' }).click(),
  ]);
  return readFileSync(await download.path(), 'utf8');
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('the local model from LOCAL_MODEL_FILE', () => {
  let modelFile = '';
  beforeAll(async () => {
    modelFile = await tinyModelFile();
  }, 300_000);
  const session = useBrowser({
    env: () => ({ LOCAL_MODEL: 'on', LOCAL_MODEL_FILE: modelFile, TURN_PAUSE_MS: '0' }),
  });

  it('is first for both speakers, writes a debate word by word, and its history and export say so', async () => {
    const { page, app } = session;
    // The model loads beside the services (llama.cpp's thread spins meanwhile): then the pages.
    await untilPasses(
      () => expect(app.output()).toMatch(/The local model .+ is ready at /),
      90_000,
      100,
    );
    await signUp(page, 'local-file@example.org');
    let selects = await modelSelects(page);
    // Loaded in the background: it joins the lists without a reload.
    await untilPasses(async () => expectLocalFirst(selects), 20_000, 100);

    // Word by word: a turn's text grows over several looks before the turn completes. The page
    // notes each length a turn being written shows (a random model's turn may be short: any turn).
    await page.evaluate(() => {
      const seen: Record<number, number[]> = {};
      (window as unknown as { seen: typeof seen }).seen = seen;
      const look = () => {
        const turns = [...document.querySelectorAll('.turn-text')];
        turns.forEach((element, index) => {
          if (!element.classList.contains('streaming')) return;
          const lengths = (seen[index] ??= []);
          const length = element.textContent?.length ?? 0;
          if (length !== lengths.at(-1)) lengths.push(length);
        });
      };
      new MutationObserver(look).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await page.getByLabel('Debate topic').fill(TOPIC);
    await page.getByRole('button', { name: 'Begin discussion' }).click();
    const panel = page.getByRole('region', { name: 'Save Your Debate' });
    await panel.waitFor({ timeout: 150_000 });
    const seen = await page.evaluate(
      () => (window as unknown as { seen: Record<number, number[]> }).seen,
    );
    const grown = Object.values(seen).filter(
      (lengths) =>
        lengths.filter((length) => length > 0).length >= 3 &&
        lengths.every((length, index) => index === 0 || length > (lengths[index - 1] ?? 0)),
    );
    expect(grown.length).toBeGreaterThan(0);
    const turns = await page.locator('.turn .provenance').allTextContents();
    expect(turns).toHaveLength(6);
    for (const line of turns) expect(line.startsWith(`Written by ${LABEL}`)).toBe(true);
    await page.getByRole('region', { name: 'The judges’ scorecard' }).waitFor();
    await panel.getByRole('button', { name: 'Science', exact: true }).click();
    await panel.getByRole('button', { name: 'Save Debate' }).click();
    await page.getByRole('status').getByText('Debate saved to your history!').waitFor();

    // The history's card: each speaker's model, each round's writer, and the export.
    await page.goto('/community/history');
    const saved = page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: TOPIC }) });
    await saved.waitFor();
    const facts = await saved.locator('.speakers-facts dd').allTextContents();
    expect(facts).toHaveLength(2);
    for (const fact of facts) expect(fact.startsWith(`Model: ${LABEL} · Position: `)).toBe(true);
    await saved.getByRole('button', { name: 'View Debate' }).click();
    await saved.getByRole('article', { name: 'Round 1 - First Speaker' }).waitFor();
    const rounds = await saved.locator('.rounds .provenance').allTextContents();
    expect(rounds).toHaveLength(6);
    for (const line of rounds) expect(line).toMatch(/^Written by Local: .+ · \d+\.\d s$/);
    for (const line of rounds) expect(line.startsWith(`Written by ${LABEL} · `)).toBe(true);

    const markdown = await exportMarkdown(page, saved);
    for (const speaker of ['First Speaker', 'Second Speaker']) {
      const line = markdown.split('\n').find((row) => row.startsWith(`- **${speaker}**: `));
      expect(line?.startsWith(`- **${speaker}**: ${LABEL}`)).toBe(true);
    }
    const written = markdown.split('\n').filter((row) => row.startsWith('Written by'));
    expect(written).toHaveLength(6);
    // The label, then the model the server reported, the tokens and the timings.
    for (const row of written) expect(row.startsWith(`Written by ${LABEL} (`)).toBe(true);
    // The judge too: the local model judges when no judge is configured.
    expect(markdown.split('\n').some((row) => row.startsWith(`Judged by ${LABEL} (`))).toBe(true);
    expect(markdown).not.toMatch(/offline (speaker|judge)/i);

    // Still first after a reload: nothing was a moment's state.
    selects = await modelSelects(page);
    await expectLocalFirst(selects);
  }, 240_000);
});

describe('the local model downloading, as a new user sees it', () => {
  let modelFile = '';
  let model: Buffer;
  let server: Server;
  let cacheDir = '';
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const requests: string[] = [];

  beforeAll(async () => {
    modelFile = await tinyModelFile();
    model = readFileSync(modelFile);
    cacheDir = mkdtempSync(join(tmpdir(), 'debate-e2e-model-cache-'));
    // A mirror that sends the first 64 KB at once, then waits for the test to have seen the
    // progress on /engine, then the rest slowly (32 KB every 300 ms: about 5 s).
    server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url} ${request.headers.range ?? ''}`.trim());
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(model.length),
      });
      const first = 64 * 1024;
      response.write(model.subarray(0, first));
      void released.then(async () => {
        for (let offset = first; offset < model.length; offset += 32 * 1024) {
          if (response.destroyed) return;
          response.write(model.subarray(offset, offset + 32 * 1024));
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  }, 300_000);

  afterAll(async () => {
    release();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const session = useBrowser({
    env: () => ({
      LOCAL_MODEL: 'on',
      LOCAL_MODEL_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/models/tiny-debate-model.gguf`,
      LOCAL_MODEL_SHA256: createHash('sha256').update(model).digest('hex'),
      LOCAL_MODEL_CACHE: cacheDir,
    }),
  });

  it('shows the progress and the offline speaker meanwhile, then offers the local model first without a reload', async () => {
    const { page, app } = session;
    await signUp(page, 'local-download@example.org');
    const selects = await modelSelects(page);
    const line = page.locator('.local-model');
    await line.waitFor();
    expect(await line.getAttribute('role')).toBe('status');
    const percent = PROGRESS.exec((await line.textContent()) ?? '')?.[1];
    expect(Number(percent)).toBeGreaterThanOrEqual(0);
    expect(Number(percent)).toBeLessThan(100);
    // Meanwhile, the offline speaker writes: the only model, and the default.
    await expectOfflineOnly(selects);

    release();
    // No reload: the page asks again while the model is on its way.
    await untilPasses(async () => expectLocalFirst(selects), 40_000, 100);
    expect(await line.count()).toBe(0);

    // The terminal's progress, at most every 5 %; one request (nothing to resume); the file kept
    // under the URL's name, with its verified marker.
    const progress = app
      .output()
      .split('\n')
      .filter((row) => row.startsWith('The local model is downloading: '));
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(requests).toEqual(['GET /models/tiny-debate-model.gguf']);
    expect(readdirSync(cacheDir).sort()).toEqual([
      'tiny-debate-model.gguf',
      'tiny-debate-model.gguf.sha256',
    ]);
    expect(app.output()).not.toContain(FETCH_FAILED);
  }, 120_000);
});

describe('the local model on a machine without network', () => {
  let cacheDir = '';
  let closedPort = 0;

  beforeAll(async () => {
    cacheDir = mkdtempSync(join(tmpdir(), 'debate-e2e-model-cache-'));
    // A port nothing listens on: the download is refused at once, as without a route.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
  });

  afterAll(() => {
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const session = useBrowser({
    env: () => ({
      LOCAL_MODEL: 'on',
      LOCAL_MODEL_URL: `http://127.0.0.1:${closedPort}/qwen2.5-1.5b-instruct-q4_k_m.gguf`,
      LOCAL_MODEL_SHA256: '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e',
      LOCAL_MODEL_CACHE: cacheDir,
    }),
  });

  it('says once that the model could not be fetched, serves, and offers the offline speaker', async () => {
    const { page, app } = session;
    await untilPasses(() => expect(app.output()).toContain(FETCH_FAILED), 15_000, 100);
    const selects = await modelSelects(page);
    await expectOfflineOnly(selects);
    expect(await page.locator('.local-model').count()).toBe(0);
    // Said once, with how to give it a file, however long it runs.
    await page.waitForTimeout(2_000);
    expect(occurrences(app.output(), FETCH_FAILED)).toBe(1);
    expect(app.output()).toContain('LOCAL_MODEL_FILE=/path/to/model.gguf npm start');
    expect(app.output()).not.toContain('The local model is downloading: 100 %');
  }, 60_000);
});
