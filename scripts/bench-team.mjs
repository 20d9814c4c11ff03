// The speaker team against the single speaker: the same model writes both sides, once as a team
// (analyzer, writer, reviewer, one revision) and once in one pass, on a fixed set of motions
// (Fact, Value and Policy), each debate followed by its side-swapped rematch, every debate judged
// by the platform's judges, saved and shared, so that the leaderboard's 'Single or team' board
// rates the two setups as the product shows them.
//
//   npm run bench:team                                   # the offline speaker, 12 motions
//   npm run bench:team -- --motions 3 --no-build         # CI-sized
//   MODEL_CATALOG='[{"id":"m","label":"M","providerModel":"…"},
//                   {"id":"m-team","label":"M","providerModel":"…","speakerMode":"team"}]' \
//     JUDGE_MODELS=judge … npm run bench:team -- --single m --team m-team
//
// Prints, per motion type and over all: the team's wins, ties and losses against the single
// speaker, and the mean difference of the judges' weighted totals (team minus single, out of 80)
// with its 95% interval (bootstrap over the debates); then the leaderboard's ratings of the two
// setups (Bradley-Terry over completed side-swapped pairs, 95% intervals, as the product
// computes them). With the offline speaker and the offline judge it checks the machinery: the
// figures say how the offline team's deterministic rules score with the offline judge's, not
// how a model's team does.
import { createClient } from 'graphql-ws';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { seededRandom } from '@debate/community-service';
import { gatewayGraphql } from './bench/graphql.mjs';
import { reportFailures, Samples } from './bench/samples.mjs';
import { buildAll, ensureInstalled, startPlatformProcess } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    motions: { type: 'string', default: '12' },
    team: { type: 'string', default: 'offline-team' },
    single: { type: 'string', default: 'offline' },
    'no-build': { type: 'boolean', default: false },
  },
});

/** Twelve motions, four of each type Agent4Debate evaluated (Fact, Value, Policy). */
const MOTIONS = [
  ['Fact', 'Remote work makes teams less productive.'],
  ['Value', 'Privacy matters more than convenience.'],
  ['Policy', 'Cities should ban private cars from their centres.'],
  ['Fact', 'Social media has made teenagers less happy.'],
  ['Value', 'Art made by machines is real art.'],
  ['Policy', 'Voting should be compulsory.'],
  ['Fact', 'Nuclear power is the safest source of energy.'],
  ['Value', 'Loyalty to a country is a virtue.'],
  ['Policy', 'Homework should be abolished in primary schools.'],
  ['Fact', 'A four-day week raises output per hour.'],
  ['Value', 'It is wrong to eat animals.'],
  ['Policy', 'Governments should tax sugary drinks.'],
];
const motions = MOTIONS.slice(0, Math.max(1, Math.min(MOTIONS.length, Number(values.motions))));
const teamId = values.team;
const singleId = values.single;

if (!values['no-build']) {
  ensureInstalled();
  buildAll();
}

const { url, child } = await startPlatformProcess({
  RATE_LIMITS: 'off',
  // The offline speaker and the offline speaker team side by side, written at once.
  OFFLINE_SPEAKER_MODE: 'both',
  OFFLINE_TOKENS_PER_SECOND: '0',
  OFFLINE_FIRST_TOKEN_MS: '0',
  TURN_PAUSE_MS: '0',
});

const graphql = gatewayGraphql(url);

const { catalog } = await graphql('{ catalog { models { id label speakerMode } } }');
for (const [id, mode] of [
  [teamId, 'team'],
  [singleId, 'single'],
]) {
  const model = catalog.models.find((entry) => entry.id === id);
  if (!model) throw new Error(`The catalogue has no model ${id}`);
  if (model.speakerMode !== mode)
    throw new Error(`${id} writes as ${model.speakerMode}, not ${mode}`);
}

/** The turns the gateway said a team made (how each was made came with it). */
let teamTurns = 0;

/** Follows a run to its end; answers its judges' verdict (null: not judged). */
function follow(runId, token) {
  const client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  let verdict = null;
  return new Promise((resolve, reject) => {
    client.subscribe(
      {
        query:
          'subscription ($id: String!) { debateRun(id: $id) { type message speaker team { steps } verdict { winner firstTotal secondTotal } } }',
        variables: { id: runId },
      },
      {
        next: ({ data, errors }) => {
          if (errors) reject(new Error(errors[0].message));
          const event = data?.debateRun;
          if (event?.type === 'verdictReady') verdict = event.verdict;
          if (event?.type === 'turnCompleted' && event.team) teamTurns += 1;
          if (event?.type === 'runFailed') reject(new Error(event.message));
        },
        error: reject,
        complete: () => resolve(verdict),
      },
    );
  }).finally(() => client.dispose());
}

/** A debate run to its end, saved and shared: its id and its verdict. */
async function debate(token, start) {
  const runId = await start();
  const verdict = await follow(runId, token);
  if (!verdict) throw new Error(`run ${runId} was not judged`);
  const { saveDebate } = await graphql(
    'mutation ($runId: String!) { saveDebate(runId: $runId, categories: ["Society"]) { id } }',
    { runId },
    token,
  );
  await graphql(
    'mutation ($id: String!) { shareDebate(id: $id) { id } }',
    { id: saveDebate.id },
    token,
  );
  return { id: saveDebate.id, verdict };
}

process.stdout.write(
  `${motions.length} motions, each debated twice (the team For, then the sides swapped): ${teamId} (team) against ${singleId} (single)\n`,
);
const started = Date.now();
const settled = await Promise.allSettled(
  motions.map(async ([type, topic], index) => {
    const { signUp } = await graphql(
      'mutation ($email: String!, $password: String!) { signUp(email: $email, password: $password) { accessToken } }',
      { email: `team-bench-${index}@example.org`, password: 'benchmark password' },
    );
    const token = signUp.accessToken;
    const side = (model, stance) => ({ model, stance, rhetoricStyle: 'standard', personality: '' });
    const settings = {
      topic,
      debateFormat: 'structured',
      moderatorEnabled: false,
      first: side(teamId, 0.6),
      second: side(singleId, -0.6),
    };
    const original = await debate(
      token,
      async () =>
        (
          await graphql(
            'mutation ($s: DebateSettingsInput!) { startDebate(settings: $s) }',
            { s: settings },
            token,
          )
        ).startDebate,
    );
    // The rematch: the same motion and styles, each model on the other side.
    const rematch = await debate(
      token,
      async () =>
        (
          await graphql(
            'mutation ($id: String!) { startRematch(debateId: $id) }',
            { id: original.id },
            token,
          )
        ).startRematch,
    );
    // The team is the first speaker in the original, the second in the rematch.
    const outcome = (verdict, teamSide) => ({
      type,
      won: verdict.winner === teamSide ? 1 : verdict.winner === null ? 0.5 : 0,
      margin:
        teamSide === 'First Speaker'
          ? verdict.firstTotal - verdict.secondTotal
          : verdict.secondTotal - verdict.firstTotal,
    });
    return [outcome(original.verdict, 'First Speaker'), outcome(rematch.verdict, 'Second Speaker')];
  }),
);
const games = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
// Each motion type's margins, and the errors of its motions that did not finish.
const byType = new Map();
const typeOf = (type) => byType.get(type) ?? byType.set(type, new Samples()).get(type);
settled.forEach((outcome, index) => {
  if (outcome.status === 'rejected') typeOf(motions[index][0]).fail(outcome.reason);
});
for (const game of games) typeOf(game.type).add(game.margin);
const seconds = ((Date.now() - started) / 1000).toFixed(1);

/** The mean and its 95% bootstrap interval (2,000 resamples). */
function meanWithInterval(numbers) {
  const mean = (list) => list.reduce((sum, value) => sum + value, 0) / list.length;
  const random = seededRandom(20261124);
  const means = Array.from({ length: 2000 }, () =>
    mean(numbers.map(() => numbers[Math.floor(random() * numbers.length)])),
  ).sort((a, b) => a - b);
  return { mean: mean(numbers), low: means[49], high: means[1949] };
}

const fixed = (value) => (value >= 0 ? '+' : '') + value.toFixed(1);
const row = (label, list) => {
  const wins = list.filter((game) => game.won === 1).length;
  const ties = list.filter((game) => game.won === 0.5).length;
  const losses = list.length - wins - ties;
  const margin = meanWithInterval(list.map((game) => game.margin));
  return `| ${label} | ${list.length} | ${wins} / ${ties} / ${losses} | ${fixed(margin.mean)} (${fixed(margin.low)} to ${fixed(margin.high)}) |`;
};
process.stdout.write(
  [
    '',
    `${games.length} debates in ${seconds} s; judged by the platform's judges (JUDGE_MODELS, else the offline judge)`,
    '',
    '| motions | debates | team wins / ties / losses | team minus single, weighted total of 80: mean (95% interval) |',
    '| --- | --- | --- | --- |',
    ...['Fact', 'Value', 'Policy'].flatMap((type) => {
      const list = games.filter((game) => game.type === type);
      return list.length > 0 ? [row(type, list)] : [];
    }),
    row('all', games),
    '',
    '',
  ].join('\n'),
);

// The product's own comparison: the leaderboard's 'Single or team' board over completed pairs.
const boardQuery =
  '{ leaderboard(subject: SETUP, pairsOnly: true) { debates apartDebates rows { id label rating low high debates pairs } apart { id label rating low high debates pairs } } }';
const deadline = Date.now() + 120_000;
let board;
for (;;) {
  board = (await graphql(boardQuery)).leaderboard;
  if (board.debates + board.apartDebates >= games.length || Date.now() > deadline) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
const rated = [...board.rows, ...board.apart];
process.stdout.write(
  [
    `The leaderboard, 'Single or team', completed side-swapped pairs only (${board.debates + board.apartDebates} debates):`,
    '',
    '| setup | rating | 95% interval | debates | pairs |',
    '| --- | --- | --- | --- | --- |',
    ...rated.map(
      (entry) =>
        `| ${entry.label} | ${Math.round(entry.rating)} | ${Math.round(entry.low)} – ${Math.round(entry.high)} | ${entry.debates} | ${entry.pairs} |`,
    ),
    '',
  ].join('\n'),
);

if (child.exitCode === null) child.kill('SIGTERM');
if (rated.length < 2 || board.debates + board.apartDebates < games.length) {
  process.stderr.write('The leaderboard did not rate every debate\n');
  process.exitCode = 1;
}
// Each debate has three rounds by the team: each came with how the team made it.
if (teamTurns !== 3 * games.length) {
  process.stderr.write(
    `${teamTurns} team turns said how they were made, not ${3 * games.length}\n`,
  );
  process.exitCode = 1;
}
// Every motion must finish: one that failed fails the benchmark even beside others of its type.
const passed = reportFailures([...byType].map(([type, margins]) => [`${type} motions`, margins]));
if (!passed || games.length < 2 * motions.length) process.exitCode = 1;
