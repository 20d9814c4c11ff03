// Generating debates: each iteration is a new user who signs up, starts a debate (the platform
// must run the offline speaker: no OPENAI_API_KEY, so no provider money is spent), follows its
// run over graphql-ws (graphql-transport-ws) until runCompleted, then saves and shares it. A
// new account has 2 free debates and may start 5 a minute: one fresh account per debate keeps
// within both rules.
//   k6 run -e BASE_URL=http://localhost:3000 -e VUS=20 deploy/k6/generate-debates.ts
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { followRun, saveAndShare, startDebate } from './lib/debate.ts';
import { signUpAs, THRESHOLDS } from './lib/graphql.ts';
import { numberSetting, setting } from './lib/settings.ts';
import { recordRequest, recordWrite, STEADY, steadyOptions } from './lib/steady.ts';

export const options: Options = STEADY
  ? steadyOptions('generate', 60)
  : {
      scenarios: {
        generate: {
          executor: 'constant-vus',
          vus: numberSetting('VUS', 20, 3),
          duration: setting('DURATION', '2m', '10s'),
          // A debate takes about 20 s: the ones under way when the time is up are followed to
          // their end (and saved) rather than cut off.
          gracefulStop: '3m',
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
/** From sending startDebate to the first words on the socket, as the user waits for them. */
const firstWords = new Trend('first_words_ms', true);

export default async function generate(): Promise<void> {
  const { email, token } = signUpAs('generator');
  if (!token) return;
  const started = Date.now();
  const runId = startDebate(token, `Load test ${__VU}-${__ITER}: should cities ban cars?`);
  if (!runId) return;
  recordWrite({ w: 'start', runId, email }, 'acknowledged');
  const outcome = await followRun(token, runId);
  // The run as one request of the fault run: it failed when it did not complete, and broke
  // at its last event.
  recordRequest('debateRun', started, outcome.completed, outcome.lastEventAt);
  recordWrite({ w: 'run', runId, completed: outcome.completed }, 'acknowledged');
  if (outcome.firstTextAt !== undefined) firstWords.add(outcome.firstTextAt - started);
  check(outcome, {
    'the run streamed text': (run) => run.firstTextAt !== undefined,
    'the run completed': (run) => run.completed,
  });
  if (!outcome.completed) return;
  runsCompleted.add(1);
  check(saveAndShare(token, runId), { 'the debate was saved and shared': (id) => !!id });
}
