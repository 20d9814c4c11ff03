// Debates as a user makes them: start one on /engine, follow its run over graphql-ws
// (graphql-transport-ws, the access token in connection_init) to its end, save it, share it.
// Each account has 2 free debates and may start 5 a minute: the callers use fresh accounts.
import { sleep } from 'k6';
import { clearTimeout, setTimeout } from 'k6/timers';
import { WebSocket } from 'k6/websockets';
import { BASE_URL, gql, graphqlErrors, pick, RANKING, report, signUp } from './graphql.ts';
import { recordWrite, STEADY } from './steady.ts';

const START = 'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }';
const WATCH = 'subscription ($id: String!) { debateRun(id: $id) { type seq } }';
const SAVE =
  'mutation ($runId: String!, $categories: [String!]!) { saveDebate(runId: $runId, categories: $categories) { id } }';
const SHARE = 'mutation ($id: String!) { shareDebate(id: $id) { id isPublic } }';

/** The offline speaker writes a debate in about 20 s on an idle machine; give up after this. */
const RUN_TIMEOUT_MS = 180_000;
/**
 * In the fault run, a run that sent no event for this long is taken as lost (its generation
 * instance killed): the offline speaker writes every second, and a debate left hanging would
 * otherwise hold its VU for the whole timeout.
 */
const STALL_MS = 10_000;

export const CATEGORIES = ['Politics', 'Technology', 'Science', 'Society', 'Ethics'] as const;

/**
 * Starts a debate written by the offline speaker (always in the catalogue; a load test must
 * never spend provider money): its run id.
 */
export function startDebate(token: string, topic: string): string | undefined {
  const speaker = (stance: number) => ({
    model: 'offline',
    stance,
    rhetoricStyle: 'standard',
    personality: '',
  });
  const result = gql<{ startDebate: string }>(
    START,
    {
      settings: {
        topic,
        debateFormat: 'structured',
        moderatorEnabled: false,
        first: speaker(0.6),
        second: speaker(-0.6),
      },
    },
    token,
  );
  return result.data?.startDebate;
}

export interface RunOutcome {
  /** runCompleted arrived. */
  readonly completed: boolean;
  /** When (Date.now()) the first textDelta arrived, if one did. */
  readonly firstTextAt?: number;
  /** When the run's last event arrived (when it was started, if none did). */
  readonly lastEventAt: number;
}

interface ServerMessage {
  readonly type: string;
  readonly payload?: { data?: { debateRun?: { type: string } }; errors?: unknown[] } | unknown[];
}

/**
 * Follows a run from its start to runCompleted or runFailed; resolves when the socket closes.
 * Errors on the socket and runFailed count as GraphQL errors (the scenarios allow none). In the
 * fault run, a socket that closes before the run ended (its gateway killed) is opened again, as
 * the web app does, up to 3 times: the run's events come again from its start.
 */
export function followRun(token: string, runId: string): Promise<RunOutcome> {
  return new Promise((resolve) => {
    let completed = false;
    /** The run ended, failed, or is given up: no socket is opened again. */
    let ended = false;
    let reopened = 0;
    let firstTextAt: number | undefined;
    let lastEventAt = Date.now();
    let socket: WebSocket | undefined;
    let stall: ReturnType<typeof setTimeout> | undefined;
    const giveUp = (why: string) => {
      report(why);
      ended = true;
      socket?.close();
    };
    const watchStall = () => {
      if (!STEADY) return;
      if (stall !== undefined) clearTimeout(stall);
      stall = setTimeout(
        () => giveUp(`run ${runId} sent no event for ${STALL_MS / 1000} s`),
        STALL_MS,
      );
    };
    const timer = setTimeout(
      () => giveUp(`run ${runId} had not ended after ${RUN_TIMEOUT_MS / 1000} s`),
      RUN_TIMEOUT_MS,
    );
    const finish = () => {
      clearTimeout(timer);
      if (stall !== undefined) clearTimeout(stall);
      resolve({ completed, firstTextAt, lastEventAt });
    };
    const open = () => {
      const current = new WebSocket(`${BASE_URL.replace(/^http/, 'ws')}/graphql`, null, {
        headers: { 'Sec-WebSocket-Protocol': 'graphql-transport-ws' },
      });
      socket = current;
      current.onopen = () => {
        current.send(
          JSON.stringify({
            type: 'connection_init',
            payload: { authorization: `Bearer ${token}` },
          }),
        );
      };
      current.onmessage = (event) => {
        const message = JSON.parse(String(event?.data)) as ServerMessage;
        switch (message.type) {
          case 'connection_ack':
            current.send(
              JSON.stringify({
                id: '1',
                type: 'subscribe',
                payload: { query: WATCH, variables: { id: runId } },
              }),
            );
            return;
          case 'ping':
            current.send(JSON.stringify({ type: 'pong' }));
            return;
          case 'next': {
            lastEventAt = Date.now();
            watchStall();
            if (!message.payload || Array.isArray(message.payload)) return;
            if (message.payload.errors && message.payload.errors.length > 0) {
              graphqlErrors.add(1);
              report(`debateRun ${runId}: ${JSON.stringify(message.payload.errors)}`);
            }
            const kind = message.payload.data?.debateRun?.type;
            if (kind === 'textDelta' && firstTextAt === undefined) firstTextAt = Date.now();
            if (kind === 'runCompleted') completed = true;
            if (kind === 'runFailed') {
              graphqlErrors.add(1);
              report(`run ${runId} failed: ${JSON.stringify(message.payload.data)}`);
            }
            return;
          }
          case 'error':
            graphqlErrors.add(1);
            giveUp(`debateRun ${runId}: ${JSON.stringify(message.payload)}`);
            return;
          case 'complete':
            ended = true;
            current.close();
            return;
        }
      };
      current.onerror = (event) => report(`the socket of run ${runId}: ${event?.error ?? 'error'}`);
      current.onclose = () => {
        if (ended || completed || !STEADY || reopened >= 3) {
          finish();
          return;
        }
        reopened += 1;
        setTimeout(open, 1_000);
      };
    };
    watchStall();
    open();
  });
}

/** Saves a completed run to its author's history and shares it: the public debate's id. */
export function saveAndShare(token: string, runId: string): string | undefined {
  const saved = gql<{ saveDebate: { id: string } }>(
    SAVE,
    { runId, categories: [pick(CATEGORIES)] },
    token,
  );
  const id = saved.data?.saveDebate.id;
  if (!id) return undefined;
  recordWrite({ w: 'save', id, runId }, 'acknowledged');
  const shared = gql<{ shareDebate: { id: string } }>(SHARE, { id }, token).data?.shareDebate.id;
  if (shared) recordWrite({ w: 'share', id: shared }, 'acknowledged');
  return shared;
}

/** The newest shared debates' ids, at most `count`. */
export function sharedDebates(count: number): string[] {
  const page = gql<{ communityDebates: { debates: Array<{ id: string }> } }>(RANKING, {
    sort: 'MOST_RECENT',
    period: 'ALL_TIME',
  });
  return (page.data?.communityDebates.debates ?? []).slice(0, count).map((d) => d.id);
}

/**
 * Makes sure at least `count` debates are shared, as users share them: each missing one is
 * written by a new account (which has 2 free debates), all at once, then saved and shared.
 * The community service takes shared debates from a JetStream consumer: waits until they show.
 */
export async function ensureSharedDebates(count: number): Promise<string[]> {
  const missing = count - sharedDebates(count).length;
  if (missing <= 0) return sharedDebates(count);
  const runs = Array.from({ length: missing }, (_, i) => {
    const token = signUp(`author-${i}`);
    const runId = token ? startDebate(token, `Load test ${i}: should homework be banned?`) : '';
    return { token, runId: runId ?? '' };
  });
  await Promise.all(
    runs.map(async ({ token, runId }) => {
      if (!runId) return;
      const outcome = await followRun(token, runId);
      if (outcome.completed) saveAndShare(token, runId);
    }),
  );
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const ids = sharedDebates(count);
    if (ids.length >= count) return ids;
    sleep(0.2);
  }
  return sharedDebates(count);
}
