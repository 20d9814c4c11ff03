// Streaming benchmark: when a speaker's first words appear on screen, in Chromium through the
// real engine page, against the model's time to first token. The platform runs as `npm start`
// runs it (one process), its model catalogue one model on a local OpenAI-compatible fake (the
// edge of the world) whose time to first token is set; `--debates` users each begin a debate
// at once in their own browser context, so that many run together.
//
//   npm run bench:streaming                              # 20 debates, 800 ms to the first token
//   npm run bench:streaming -- --debates 10 --ttft 300
//
// For every turn: the fake records when the request arrived (it then waits the TTFT before the
// first token), and the page records when the turn's first words were in the DOM and when the
// next frame was painted after them (requestAnimationFrame): on screen. Both clocks are this
// machine's. Prints per turn the time from the request to the words on screen, its p50/p95/max,
// and the goal: p95 <= TTFT + 150 ms. The browser, the platform and this script share the
// machine's cores, so their delays are in the figure.
import { startFakeOpenAi } from '@debate/testing';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { fixed, reportFailures, Samples } from './bench/samples.mjs';
import { chromiumArgs, chromiumPath } from './chromium.mjs';
import { buildAll, ensureInstalled, startPlatformProcess } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    debates: { type: 'string', default: '20' },
    ttft: { type: 'string', default: '800' },
    'no-build': { type: 'boolean', default: false },
  },
});
const debates = Number(values.debates);
const ttftMs = Number(values.ttft);
const GOAL_MS = 150;

if (!values['no-build']) {
  ensureInstalled();
  buildAll();
}

// The model writes its answer in 24 pieces, 40 ms apart, after its time to first token.
const provider = await startFakeOpenAi({ family: 'openai', firstTokenMs: ttftMs });
provider.mode = { kind: 'stream', pieces: 24, pauseMs: 40 };

const { url, child } = await startPlatformProcess({
  // Every simulated user signs up from this one address: the benchmark's own platform.
  RATE_LIMITS: 'off',
  MODEL_CATALOG: JSON.stringify([
    {
      id: 'bench-model',
      label: 'Bench model',
      baseUrl: provider.baseUrl,
      providerModel: 'bench-model',
      structuredOutput: 'tool_call',
      maxConcurrentTurns: debates,
    },
  ]),
  OPENAI_MAX_RETRIES: '0',
});

const browser = await chromium.launch({
  executablePath: chromiumPath,
  // Every page is a user looking at it: no background-tab throttling of timers and frames.
  args: [
    ...chromiumArgs,
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
  ],
});

/** Records, in the page, when each turn's first words were in the DOM and then painted. */
/* global window, document, requestAnimationFrame, MutationObserver -- it runs in the browser */
function watchFirstWords() {
  const seen = new Map();
  window.__firstWords = seen;
  const look = () => {
    for (const turn of document.querySelectorAll('article.turn')) {
      const key = turn.getAttribute('aria-label');
      const text = turn.querySelector('.turn-text')?.textContent ?? '';
      if (!key || seen.has(key) || text.trim() === '') continue;
      const entry = { inDom: Date.now(), onScreen: null };
      seen.set(key, entry);
      requestAnimationFrame(() => {
        entry.onScreen = Date.now();
      });
    }
  };
  new MutationObserver(look).observe(document.body, {
    childList: true,
    subtree: true,
    characterData: true,
  });
}

async function signUpAndOpen(index) {
  const context = await browser.newContext({ baseURL: url });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Create one' }).click();
  await page.getByLabel('Email').fill(`stream-${index}@example.org`);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create Account', exact: true }).click();
  await page.waitForURL('**/account');
  await page.goto('/engine');
  await page.getByLabel('Debate topic').fill(`Bench motion ${index}: should cities ban cars?`);
  await page.evaluate(watchFirstWords);
  return { page, topic: `Bench motion ${index}: should cities ban cars?` };
}

try {
  process.stdout.write(`Signing up ${debates} users in Chromium…\n`);
  const users = [];
  for (let index = 0; index < debates; index += 1) users.push(await signUpAndOpen(index));

  process.stdout.write(
    `Beginning ${debates} debates at once (the model: ${ttftMs} ms to its first token)…\n`,
  );
  const startedAt = Date.now();
  await Promise.all(
    users.map(({ page }) => page.getByRole('button', { name: 'Begin discussion' }).click()),
  );
  await Promise.all(
    users.map(({ page }) =>
      page.getByRole('button', { name: 'Begin discussion' }).waitFor({ timeout: 300_000 }),
    ),
  );
  const wallSeconds = (Date.now() - startedAt) / 1000;

  // Each request of the fake, by its debate (the topic) and turn (speaker and round title).
  const asked = new Map();
  for (const request of provider.requests) {
    const system = request.body.messages.find((message) => message.role === 'system')?.content;
    const user = request.body.messages.find((message) => message.role === 'user')?.content;
    const topic = /<motion>([^<]*)<\/motion>/.exec(user ?? '')?.[1];
    const speaker = /You are the (First Speaker|Second Speaker)/.exec(system ?? '')?.[1];
    const round = /Round \d, ([A-Za-z ]+):/.exec(system ?? '')?.[1];
    if (topic && speaker && round) asked.set(`${topic}|${speaker}, ${round}`, request.receivedAt);
  }

  // Each turn's time from the request to its first words (ms); a turn not matched is an error.
  const onScreen = new Samples();
  const inDom = new Samples();
  // The debate's first turn apart: the browser is still setting the debate up (its start, then
  // its subscription) while the model is asked.
  const firstTurns = new Samples();
  const laterTurns = new Samples();
  for (const { page, topic } of users) {
    const seen = await page.evaluate(() => [...window.__firstWords.entries()]);
    for (const [key, times] of seen) {
      const receivedAt = asked.get(`${topic}|${key}`);
      if (receivedAt === undefined || times.onScreen === null) {
        onScreen.fail(
          `${topic}, ${key}: ${receivedAt === undefined ? 'no request of the model' : 'not painted'}`,
        );
        continue;
      }
      onScreen.add(times.onScreen - receivedAt);
      (key === 'First Speaker, Constructive Arguments' ? firstTurns : laterTurns).add(
        times.onScreen - receivedAt,
      );
      inDom.add(times.inDom - receivedAt);
    }
  }
  if (onScreen.count === 0 && onScreen.errors === 0) onScreen.fail('no turn had words on screen');
  const ms = (samples, p) => fixed(samples.percentile(p), 0);
  const p95 = onScreen.percentile(95);
  const rows = [
    ['debates at once', debates],
    ['turns measured', onScreen.count],
    ['turns not matched', onScreen.errors],
    ['debates wall time (s)', wallSeconds.toFixed(1)],
    ["model's time to first token (ms)", ttftMs],
    ['request -> first words in the DOM p50 (ms)', ms(inDom, 50)],
    ['request -> first words on screen p50 (ms)', ms(onScreen, 50)],
    ['request -> first words on screen p95 (ms)', fixed(p95, 0)],
    ['request -> first words on screen max (ms)', ms(onScreen, 100)],
    ["  the debates' first turns: p50 / p95 (ms)", `${ms(firstTurns, 50)} / ${ms(firstTurns, 95)}`],
    ['  the later turns: p50 / p95 (ms)', `${ms(laterTurns, 50)} / ${ms(laterTurns, 95)}`],
    ['p95 beyond the TTFT (ms)', fixed(p95 - ttftMs, 0)],
    [`goal: p95 <= TTFT + ${GOAL_MS} ms`, p95 <= ttftMs + GOAL_MS ? 'met' : 'NOT met'],
  ];
  const width = Math.max(...rows.map(([label]) => String(label).length));
  for (const [label, value] of rows)
    process.stdout.write(`${String(label).padEnd(width)}  ${value}\n`);
  reportFailures([['request -> first words on screen', onScreen]]);
} finally {
  await browser.close();
  await provider.close();
  if (child.exitCode === null) child.kill('SIGTERM');
}
