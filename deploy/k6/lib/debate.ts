// Debates as a user makes them: start one on /engine, follow its run over graphql-ws
// (graphql-transport-ws, the access token in connection_init) to its end, save it, share it.
// Each account has 2 free debates and may start 5 a minute: the callers use fresh accounts.
import { sleep } from 'k6';
import { clearTimeout, setTimeout } from 'k6/timers';
import { WebSocket } from 'k6/websockets';
import { BASE_URL, gql, graphqlErrors, pick, RANKING, report, signUp } from './graphql.ts';

const START = 'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }';
const WATCH = 'subscription ($id: String!) { debateRun(id: $id) { type seq } }';
const SAVE =
  'mutation ($runId: String!, $categories: [String!]!) { saveDebate(runId: $runId, categories: $categories) { id } }';
const SHARE = 'mutation ($id: String!) { shareDebate(id: $id) { id isPublic } }';

/** The offline speaker writes a debate in about 20 s on an idle machine; give up after this. */
const RUN_TIMEOUT_MS = 180_000;

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
}

interface ServerMessage {
  readonly type: string;
  readonly payload?: { data?: { debateRun?: { type: string } }; errors?: unknown[] } | unknown[];
}

/**
 * Follows a run from its start to runCompleted or runFailed; resolves when the socket closes.
 * Errors on the socket and runFailed count as GraphQL errors (the scenarios allow none).
 */
export function followRun(token: string, runId: string): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${BASE_URL.replace(/^http/, 'ws')}/graphql`, null, {
      headers: { 'Sec-WebSocket-Protocol': 'graphql-transport-ws' },
    });
    let completed = false;
    let firstTextAt: number | undefined;
    const timer = setTimeout(() => {
      report(`run ${runId} had not ended after ${RUN_TIMEOUT_MS / 1000} s`);
      socket.close();
    }, RUN_TIMEOUT_MS);
    socket.onopen = () => {
      socket.send(
        JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }),
      );
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event?.data)) as ServerMessage;
      switch (message.type) {
        case 'connection_ack':
          socket.send(
            JSON.stringify({
              id: '1',
              type: 'subscribe',
              payload: { query: WATCH, variables: { id: runId } },
            }),
          );
          return;
        case 'ping':
          socket.send(JSON.stringify({ type: 'pong' }));
          return;
        case 'next': {
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
          report(`debateRun ${runId}: ${JSON.stringify(message.payload)}`);
          socket.close();
          return;
        case 'complete':
          socket.close();
          return;
      }
    };
    socket.onerror = (event) => report(`the socket of run ${runId}: ${event?.error ?? 'error'}`);
    socket.onclose = () => {
      clearTimeout(timer);
      resolve({ completed, firstTextAt });
    };
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
  return gql<{ shareDebate: { id: string } }>(SHARE, { id }, token).data?.shareDebate.id;
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
