// Generating debates: each VU signs up, starts a debate (the platform must run the offline
// speaker: no OPENAI_API_KEY, so no provider money is spent) and follows its run over
// graphql-ws (graphql-transport-ws) until runCompleted. A new user has 2 free debates, so
// each iteration uses a fresh account.
//   k6 run -e BASE_URL=http://localhost:3000 -e VUS=20 deploy/k6/generate-debates.ts
import { check } from 'k6';
import type { Options } from 'k6/options';
import { Counter, Trend } from 'k6/metrics';
import { WebSocket } from 'k6/websockets';
import { BASE_URL, gql, graphqlErrors, signUp, THRESHOLDS } from './lib/graphql.ts';

export const options: Options = {
  scenarios: {
    generate: {
      executor: 'constant-vus',
      vus: Number(__ENV['VUS'] ?? 20),
      duration: __ENV['DURATION'] ?? '2m',
    },
  },
  thresholds: {
    ...THRESHOLDS,
    'http_req_duration{scenario:generate}': ['p(95)<1500'],
    runs_completed: ['count>0'],
    first_words_ms: ['p(95)<3000'],
  },
};

const runsCompleted = new Counter('runs_completed');
const firstWords = new Trend('first_words_ms', true);

const START = `mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }`;
const WATCH = 'subscription ($id: String!) { debateRun(id: $id) { type seq } }';

export default function generate(): void {
  const token = signUp('generator');
  if (!token) return;
  const speaker = (stance: number) => ({
    model: 'gpt-4',
    stance,
    rhetoricStyle: 'standard',
    personality: '',
  });
  const started = Date.now();
  const result = gql<{ startDebate: string }>(
    START,
    {
      settings: {
        topic: `Load test ${__VU}-${__ITER}: should cities ban cars?`,
        debateFormat: 'structured',
        moderatorEnabled: false,
        first: speaker(0.6),
        second: speaker(-0.6),
      },
    },
    token,
  );
  const runId = result.data?.startDebate;
  if (!runId) return;

  const socket = new WebSocket(`${BASE_URL.replace(/^http/, 'ws')}/graphql`, null, {
    headers: { 'Sec-WebSocket-Protocol': 'graphql-transport-ws' },
  });
  let sawText = false;
  socket.onopen = () => {
    socket.send(
      JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }),
    );
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event?.data)) as {
      type: string;
      payload?: { data?: { debateRun?: { type: string } }; errors?: unknown[] } | unknown[];
    };
    if (message.type === 'connection_ack') {
      socket.send(
        JSON.stringify({
          id: '1',
          type: 'subscribe',
          payload: { query: WATCH, variables: { id: runId } },
        }),
      );
      return;
    }
    if (message.type === 'error') {
      graphqlErrors.add(1);
      socket.close();
      return;
    }
    if (message.type === 'next' && message.payload && !Array.isArray(message.payload)) {
      const kind = message.payload.data?.debateRun?.type;
      if (kind === 'textDelta' && !sawText) {
        sawText = true;
        firstWords.add(Date.now() - started);
      }
      if (kind === 'runCompleted') runsCompleted.add(1);
      if (kind === 'runFailed') graphqlErrors.add(1);
    }
    if (message.type === 'complete') socket.close();
  };
  socket.onclose = () => {
    check(sawText, { 'the run streamed text': (value) => value });
  };
}
