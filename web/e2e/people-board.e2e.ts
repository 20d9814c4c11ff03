import { type FakeProviders, startFakeProviders } from '@debate/embedded-keycloak/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { desktop, useBrowser } from './support/browser.js';
import { startApp } from './support/platform.js';

const APART = 'Rated apart: debates written by the offline speaker';
const PASSWORD = 'a long enough password';
/** B: an e-mail account, never listed. */
const B_EMAIL = 'unlisted-person@example.org';
/** A: Google's fake account (a verified address, a display name: the name prefilled). */
const A_NAME = 'Grace Hopper';
const A_EMAIL = 'grace@gmail.example';

/** The platform's speed-ups for the offline speaker, in both of this file's starts. */
const FAST = {
  OFFLINE_TOKENS_PER_SECOND: '2000',
  OFFLINE_FIRST_TOKEN_MS: '0',
  TURN_PAUSE_MS: '0',
};

const DEBATE_RUN = `subscription ($id: String!) {
  debateRun(id: $id) { type turn minWords message }
}`;

/**
 * In the page (its origin, its refresh cookie): a debate of the signed-in user against the
 * offline speaker through the gateway's GraphQL API, as the engine drives it but without typing:
 * started with `settings.person`, followed over the run's WebSocket, each awaited turn submitted
 * with a few more words than the round's fewest, until judged; then saved and shared. Answers
 * the run's event types.
 */
async function debateAgainstOffline(page: Page, token: string, topic: string): Promise<string[]> {
  return page.evaluate(
    async ({ token, topic, subscription }) => {
      const gql = async (query: string, variables: object): Promise<Record<string, unknown>> => {
        const answer = await fetch('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await answer.json()) as {
          data?: Record<string, unknown>;
          errors?: Array<{ message: string }>;
        };
        if (body.errors?.[0]) throw new Error(`${query.slice(0, 40)}: ${body.errors[0].message}`);
        return body.data ?? {};
      };
      const speaker = (model: string, stance: number) => ({
        model,
        stance,
        rhetoricStyle: 'standard',
        personality: '',
      });
      const started = await gql(
        'mutation ($s: DebateSettingsInput!) { startDebate(settings: $s) }',
        {
          s: {
            topic,
            debateFormat: 'structured',
            moderatorEnabled: false,
            first: speaker('person', 0.8),
            second: speaker('offline', -0.8),
            person: 'FIRST',
          },
        },
      );
      const runId = String(started['startDebate']);
      const words = (count: number) =>
        Array.from({ length: count }, (_, index) => `reason${index}`).join(' ') + '.';

      const types = await new Promise<string[]>((resolve, reject) => {
        const seen: string[] = [];
        const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
        const socket = new WebSocket(
          `${scheme}://${location.host}/graphql`,
          'graphql-transport-ws',
        );
        const send = (message: object) => socket.send(JSON.stringify(message));
        const fail = (error: Error) => {
          socket.close();
          reject(error);
        };
        socket.onopen = () =>
          send({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } });
        socket.onerror = () => fail(new Error('The run’s WebSocket failed'));
        socket.onmessage = (message: MessageEvent<string>) => {
          const data = JSON.parse(message.data) as {
            type: string;
            payload?: {
              data?: {
                debateRun?: {
                  type: string;
                  turn: number | null;
                  minWords: number | null;
                  message: string | null;
                };
              };
            };
          };
          if (data.type === 'connection_ack') {
            send({
              id: 'run',
              type: 'subscribe',
              payload: { query: subscription, variables: { id: runId } },
            });
          } else if (data.type === 'ping') {
            send({ type: 'pong' });
          } else if (data.type === 'next') {
            const event = data.payload?.data?.debateRun;
            if (!event) return fail(new Error(`The run refused: ${JSON.stringify(data.payload)}`));
            seen.push(event.type);
            if (event.type === 'runFailed' || event.type === 'runStopped') {
              return fail(new Error(`The run ended: ${event.type} ${event.message ?? ''}`));
            }
            if (event.type === 'turnAwaiting') {
              gql(
                'mutation ($r: String!, $t: String!, $n: Int!) { submitTurn(runId: $r, text: $t, turn: $n) }',
                {
                  r: runId,
                  t: words((event.minWords ?? 40) + 5),
                  n: event.turn,
                },
              ).catch(fail);
            }
          } else if (data.type === 'complete') {
            socket.close();
            resolve(seen);
          } else if (data.type === 'error') {
            fail(new Error(`The run refused: ${JSON.stringify(data.payload)}`));
          }
        };
      });

      const saved = await gql(
        'mutation ($r: String!, $c: [String!]!) { saveDebate(runId: $r, categories: $c) { id } }',
        { r: runId, c: ['Science'] },
      );
      const { id } = saved['saveDebate'] as { id: string };
      await gql('mutation ($id: String!) { shareDebate(id: $id) { id } }', { id });
      return types;
    },
    { token, topic, subscription: DEBATE_RUN },
  );
}

/** A fresh access token for the page's user, from its session (the refresh cookie). */
async function accessToken(page: Page): Promise<string> {
  const answer = await page.request.post('/graphql', {
    data: { query: 'mutation { refreshSession { accessToken } }' },
  });
  const body = (await answer.json()) as { data?: { refreshSession?: { accessToken: string } } };
  const token = body.data?.refreshSession?.accessToken;
  if (!token) throw new Error(`No session: ${JSON.stringify(body)}`);
  return token;
}

/** Three debates of the page's user against the offline speaker, judged, saved and shared. */
async function threeDebates(page: Page, who: string): Promise<void> {
  const token = await accessToken(page);
  for (const round of [1, 2, 3]) {
    const types = await debateAgainstOffline(page, token, `${who}'s motion number ${round}`);
    expect(types.filter((type) => type === 'turnAwaiting')).toHaveLength(3);
    expect(types).toContain('verdictReady');
    expect(types.at(-1)).toBe('runCompleted');
  }
}

/** A table's body rows, each as its cells' texts. */
async function rowsOf(table: Locator): Promise<string[][]> {
  const rows = await table.locator('tbody tr').all();
  return Promise.all(rows.map((row) => row.locator('th, td').allTextContents()));
}

/** The account page's People board section. */
const listingOf = (page: Page) => page.getByRole('region', { name: 'People board' });

/** Reloads the account page until it counts three rated debates (rated in the background). */
async function ratedThree(page: Page): Promise<void> {
  const rated = listingOf(page).getByText(
    '3 of your shared debates against a model are rated; you appear once three are.',
  );
  for (let attempt = 0; ; attempt += 1) {
    await page.goto('/account');
    await listingOf(page)
      .getByText(/^You are (not )?listed/)
      .waitFor();
    if ((await rated.count()) > 0) return;
    if (attempt === 60) throw new Error('The account page never counted three rated debates');
    await page.waitForTimeout(250);
  }
}

// A person's debates against the offline speaker are rated apart (the offline speaker wrote a
// side), on the People board as on every board. A (the deployment's test account, by its
// verified address) and B (the test account by its id, known once B exists: the platform is
// started once to create B, then again over the same data) each have more than the two free
// debates of a new account.
describe('the People board', () => {
  let providers: FakeProviders;
  const dataDir = mkdtempSync(join(tmpdir(), 'debate-people-'));
  let bId = '';
  beforeAll(async () => {
    providers = await startFakeProviders();
    const first = await startApp({ DATA_DIR: dataDir, ...FAST });
    try {
      const answer = await fetch(`${first.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: first.url },
        body: JSON.stringify({
          query:
            'mutation ($e: String!, $p: String!) { signUp(email: $e, password: $p) { user { id } } }',
          variables: { e: B_EMAIL, p: PASSWORD },
        }),
      });
      const body = (await answer.json()) as { data?: { signUp?: { user: { id: string } } } };
      bId = body.data?.signUp?.user.id ?? '';
      if (!bId) throw new Error(`B could not sign up: ${JSON.stringify(body)}`);
    } finally {
      await first.stop();
    }
  }, 60_000);
  const session = useBrowser({
    env: () => ({
      ...providers.env(),
      DATA_DIR: dataDir,
      USAGE_TEST_ACCOUNT_EMAIL: A_EMAIL,
      USAGE_TEST_ACCOUNT_ID: bId,
      ...FAST,
    }),
  });
  afterAll(async () => {
    await providers?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('rates a listed person with an interval after three judged debates, never an unlisted one by name, and pools everyone’s side', async () => {
    const { page } = session;
    // A: signs in with Google, opts in under the display name the field is prefilled with.
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL('**/account');
    const listing = listingOf(page);
    await listing.getByText('You are not listed.').waitFor();
    await listing
      .getByText('0 of your shared debates against a model are rated; you appear once three are.')
      .waitFor();
    const checkbox = listing.getByRole('checkbox', { name: 'List me on the People board' });
    expect(await checkbox.isChecked()).toBe(false);
    expect(await listing.getByRole('textbox', { name: 'Name on the board' }).inputValue()).toBe(
      A_NAME,
    );
    await checkbox.check();
    await listing.getByRole('button', { name: 'Save' }).click();
    await listing.getByText(`You are listed as ${A_NAME}.`).waitFor();

    await threeDebates(page, 'Grace');

    // A's account page counts the three, once the board has rated them.
    await ratedThree(page);
    await listing.getByText(`You are listed as ${A_NAME}.`).waitFor();

    // B: signs in (made before this start), never opts in, the same three debates.
    const other = await session.open(desktop);
    await other.goto('/login');
    await other.getByLabel('Email').fill(B_EMAIL);
    await other.getByLabel('Password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Sign In', exact: true }).click();
    await other.waitForURL('**/account');
    await listingOf(other).getByText('You are not listed.').waitFor();
    await threeDebates(other, 'Unlisted');
    // B's three are rated too: listed, B would be on the board.
    await ratedThree(other);

    // The People board, recomputed in the background: reload until A's row shows. All six
    // debates were against the offline speaker: rated apart.
    const apart = other.getByRole('region', { name: APART }).getByRole('table');
    const aRow = apart.locator('tbody tr', { hasText: A_NAME });
    for (let attempt = 0; ; attempt += 1) {
      await other.goto('/community/leaderboard?board=people');
      await other.locator('.leaderboard table, .leaderboard .empty-state').first().waitFor();
      if ((await aRow.count()) > 0) break;
      if (attempt === 60) throw new Error(`The People board never showed ${A_NAME}`);
      await other.waitForTimeout(250);
    }
    expect(
      await other
        .getByRole('table', { name: /^People vs models, offline speaker: 6 judged debates$/ })
        .count(),
    ).toBe(1);
    expect(await other.getByRole('checkbox', { name: 'Only side-swapped pairs' }).count()).toBe(0);
    const rows = await rowsOf(apart);
    const byName = (name: string) => rows.find((row) => row[1] === name);
    const a = byName(`${A_NAME} person`);
    expect(a?.[2]).toMatch(/^\d{3,4}$/);
    const [low, high] = (a?.[3] ?? '').split(' – ').map(Number);
    expect(low).toBeLessThan(Number(a?.[2]));
    expect(high).toBeGreaterThan(Number(a?.[2]));
    expect(a?.[4]).toBe('3');
    // Everyone's side pooled: A's three and B's three.
    expect(byName('People')?.[4]).toBe('6');
    expect(await apart.locator('tr.people-row th').textContent()).toBe('People');
    await other.getByText('People: every person’s side pooled, listed or not.').waitFor();
    // The rows: A, the People, the offline speaker; B by no name at all.
    expect(rows.map((row) => row[1]).sort()).toEqual([
      `${A_NAME} person`,
      'Offline speaker',
      'People',
    ]);
    const board = (await other.locator('.leaderboard').textContent()) ?? '';
    expect(board).not.toContain('Anonymous User');
    expect(board).not.toContain(B_EMAIL);

    // On the forum, a shared person debate's card: the person against the model.
    await other.goto('/community/ranking');
    const card = other
      .locator('.debate-card')
      .filter({ has: other.getByRole('heading', { name: "Grace's motion number 1" }) });
    await card.waitFor();
    expect(await card.textContent()).toContain(`${A_NAME} (Strongly For) vs Offline speaker`);
  }, 180_000);
});
