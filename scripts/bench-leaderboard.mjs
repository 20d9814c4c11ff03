// Leaderboard benchmark: 10,000 judged debates shared, the background recompute's time (the
// boards' and the judges' record's), then the leaderboard tab's query through the gateway for
// each board and the Judges tab's query (goal: server p95 <= 30 ms).
//
//   npm run bench:leaderboard                                  # 10,000 debates, 5 s per board
//   npm run bench:leaderboard -- --debates 2000 --duration 3 --connections 10 --no-build
//
// The platform runs in a process of its own (scripts/bench/community-server.mjs): the five
// services and the gateway over a real nats-server, the embedded store. The debates reach the
// community service as the debates service shares them (debates.debate.shared on JetStream):
// six models of known strengths (one debate in ten against the offline speaker, rated apart),
// judged as Bradley-Terry says they would be by a panel of three judges (one of them a model
// that speaks), one in five the side-swapped rematch of the one before it; on 200 of them five readers say where they stood and vote (the audience's column).
// Server time is what the gateway reports in Server-Timing for each answer.
import { parseArgs } from 'node:util';
import {
  measureQuery,
  reportQueryFailures,
  startCommunityPlatform,
} from './bench/community-load.mjs';
import { fixed } from './bench/samples.mjs';
import { buildAll, ensureInstalled } from './workspace.mjs';

const { values } = parseArgs({
  options: {
    debates: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    'no-build': { type: 'boolean', default: false },
  },
});
const debateCount = Number(values.debates);
const duration = Number(values.duration);
const connections = Number(values.connections);

if (!values['no-build']) {
  ensureInstalled();
  buildAll();
}

// After the build: the workspace's packages are imported from their dist.
const {
  communityDebateContracts,
  debateSharedEvent,
  judgesContracts,
  leaderboardContracts,
  OFFLINE_MODEL_ID,
  OFFLINE_MODEL_LABEL,
} = await import('@debate/contracts');
const { createClientProxy, JetStreamEventLog, natsTransport, ServiceClient } =
  await import('@debate/nest');
const { offlineTurn, offlineVerdict, sharedDebateOf } = await import('@debate/testing');

// ---------------------------------------------------------------------------------------------
// The platform
const { url, natsUrl, stop } = await startCommunityPlatform();

// ---------------------------------------------------------------------------------------------
// 10,000 judged debates between models of known strengths
const MODELS = {
  'model-a': 1250,
  'model-b': 1150,
  'model-c': 1050,
  'model-d': 950,
  'model-e': 900,
  'model-f': 800,
};
const STYLES = ['standard', 'formal', 'casual', 'emotional', 'factual', 'adversarial'];
const DAY = 24 * 60 * 60_000;
let seed = 0x1eadb0a;
const random = () => {
  // Mulberry32: the same debates on every run.
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const chance = (a, b) => 1 / (1 + 10 ** ((b - a) / 400));
const strengthOf = (id) => MODELS[id] ?? 1000;

function speaker(modelId, stance, rhetoricStyle) {
  const offline = modelId === OFFLINE_MODEL_ID;
  return {
    name: modelId,
    stance,
    rhetoricStyle,
    writtenBy: offlineTurn({
      kind: offline ? 'offline' : 'model',
      modelId,
      label: offline ? OFFLINE_MODEL_LABEL : `Model ${modelId.slice(-1).toUpperCase()}`,
      turns: 3,
    }),
    personalityHints: false,
  };
}

/**
 * A verdict of `judgeId` on a debate First Speaker wins with chance `p`: one in ten a tie (its
 * readings disagreeing), else the winner drawn as Bradley-Terry says.
 */
function judged(judgeId, p) {
  const draw = random();
  const verdict =
    draw < 0.1
      ? offlineVerdict(6, 6)
      : draw < 0.1 + 0.9 * p
        ? offlineVerdict(8, 5)
        : offlineVerdict(4, 7);
  const judgedBy = offlineTurn({
    kind: 'model',
    modelId: judgeId,
    label: `Judge ${judgeId}`,
    turns: 2,
  });
  if (draw >= 0.1) return { ...verdict, judgedBy };
  const readings = [
    { ...verdict.readings[0], winner: 'First Speaker' },
    { ...verdict.readings[1], winner: 'Second Speaker' },
  ];
  return { ...verdict, judgedBy, tieReason: 'readings_disagree', readings };
}
/** The panel's other judges: one of them a model that also speaks (its self-preference). */
const PANEL = ['judge-y', 'model-a'];
const panelOf = (judgeId, p) => {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { scores, panel, ...verdict } = judged(judgeId, p);
  return verdict;
};

const now = Date.now();
const models = Object.keys(MODELS);
const debates = [];
for (let index = 0; index < debateCount; index += 1) {
  const id = `lb-${String(index).padStart(6, '0')}`;
  const previous = debates.at(-1);
  const sharedAt = new Date(now - ((debateCount - index) * 30 * DAY) / debateCount).toISOString();
  let first;
  let second;
  let rematchOf = null;
  if (previous && !previous.rematchOf && random() < 0.25) {
    // The side-swapped rematch of the one before: each model on the other side.
    first = { ...previous.model2.writtenBy, style: previous.model1.rhetoricStyle };
    second = { ...previous.model1.writtenBy, style: previous.model2.rhetoricStyle };
    rematchOf = previous.id;
  } else {
    const a = pick(models);
    const b = random() < 0.1 ? OFFLINE_MODEL_ID : pick(models.filter((m) => m !== a));
    const [x, y] = random() < 0.5 ? [a, b] : [b, a];
    first = { modelId: x, style: pick(STYLES) };
    second = { modelId: y, style: pick(STYLES.filter((s) => s !== first.style)) };
  }
  const p = chance(strengthOf(first.modelId), strengthOf(second.modelId));
  const verdict = { ...judged('judge-x', p), panel: PANEL.map((judge) => panelOf(judge, p)) };
  debates.push(
    sharedDebateOf(id, {
      userId: `author-${index % 500}`,
      userDisplayName: `Author ${index % 500}`,
      timestamp: sharedAt,
      sharedAt,
      model1: speaker(first.modelId, 0.6, first.style),
      model2: speaker(second.modelId, -0.6, second.style),
      verdict,
      rematchOf,
      // Each side's rounds 40 to 400 words long: the judges' record fits the length.
      rounds: [1, 2, 3].flatMap((round) =>
        ['First Speaker', 'Second Speaker'].map((speakerName) => ({
          speaker: speakerName,
          round,
          text: 'word '.repeat(40 + Math.floor(random() * 360)).trim(),
          summary: 'A summary.',
          writtenBy: null,
          team: null,
        })),
      ),
    }),
  );
}

const events = new JetStreamEventLog({ url: natsUrl }, { anonymous: 'bench-leaderboard' });
const community = new ServiceClient(
  createClientProxy(natsTransport(natsUrl), { anonymous: 'bench-leaderboard' }),
);

async function inBatches(items, size, work) {
  for (let start = 0; start < items.length; start += size) {
    await Promise.all(items.slice(start, start + size).map(work));
  }
}
const shareDebate = (debate) =>
  events.publish(debateSharedEvent, { debate }, `${debate.id}:${debate.sharedAt}`);
async function until(probe, done, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const board = (subject, pairsOnly, controlled = false) =>
  community.request(leaderboardContracts.get, { subject, pairsOnly, controlled });
// Every debate read: fitted, or not rated for a reason (the same model on both sides, or past
// the daily limit of its author and pairing).
const rated = (found) =>
  found.debates + found.apartDebates + found.notRated.sameSubject + found.notRated.dailyLimit;

let started = Date.now();
const last = debates.at(-1);
await inBatches(debates.slice(0, -1), 200, shareDebate);
await until(
  () =>
    community.request(communityDebateContracts.get, {
      debateId: debates.at(-2).id,
      countView: false,
    }),
  (reply) => reply.debate !== null,
);
const sharedSeconds = (Date.now() - started) / 1000;

// The audience: on 200 debates, five readers Against before and For after (or the reverse).
started = Date.now();
await inBatches(debates.slice(0, 200), 20, async (debate, index) => {
  const [before, after] = index % 3 === 0 ? ['FOR', 'AGAINST'] : ['AGAINST', 'FOR'];
  for (let reader = 0; reader < 5; reader += 1) {
    const readerId = `reader-${reader}`;
    await community.request(communityDebateContracts.standBefore, {
      readerId,
      debateId: debate.id,
      stance: before,
    });
    await community.request(communityDebateContracts.vote, {
      voterId: readerId,
      debateId: debate.id,
      kind: after,
    });
  }
});
const mindsSeconds = (Date.now() - started) / 1000;

// The last share: its recompute reads every debate and every answer.
const lastShared = Date.now();
await shareDebate(last);
const full = await until(
  () => board('MODEL', false),
  (found) => rated(found) === debateCount && found.rows.some((row) => row.audience !== null),
);
const settledMs = Date.now() - lastShared;
await new Promise((resolve) => setTimeout(resolve, 2_000)); // any recompute still queued
const settled = await board('MODEL', false);
// The controlled boards come last in a recompute, after the judges' record: the rows below are
// measured once they are stored, so that no recompute is running then.
const controlled = await until(
  () => board('MODEL', false, true),
  (found) => found.computedAt !== null && found.computedAt >= settled.computedAt,
);
console.log(
  `seeded ${debateCount} judged debates in ${sharedSeconds.toFixed(1)} s through JetStream, ` +
    `1,000 answers before and after on 200 of them in ${mindsSeconds.toFixed(1)} s`,
);
console.log(
  `recompute of the boards from ${debateCount} judged debates: ${settled.computeMs} ms as rated, ` +
    `${controlled.computeMs} ms to the controlled boards stored (after the judges' record) ` +
    `(${settled.bootstrapRounds} bootstrap rounds per fit); the board showed the last share ` +
    `${settledMs} ms after it was published`,
);
console.log(
  `MODEL board: ${full.debates} debates rated (${full.rows.length} models), ` +
    `${full.apartDebates} apart (${full.apart.length} rows); order ` +
    `${full.rows.map((row) => `${row.id} ${Math.round(row.rating)} [${Math.round(row.low)}, ${Math.round(row.high)}]`).join(', ')}`,
);
const judges = await until(
  () => community.request(judgesContracts.get, {}),
  (found) => found.debates === debateCount,
);
console.log(
  `judges' record from ${judges.debates} judged debates (${judges.judges.length} judges, ` +
    `${judges.all.pairwiseAgreement.count} pairs of judges): computed in ${judges.computeMs} ms ` +
    `(within each recompute, after the boards); all judges: position consistency ` +
    `${fixed(100 * judges.all.positionConsistency.value, 1)}%, Fleiss' kappa ` +
    `${fixed(judges.all.fleissKappa.value, 3)}, length slope ${fixed(judges.all.lengthSlope.value, 3)}`,
);
const pairs = await board('MODEL', true);
console.log(`pairs only: ${pairs.debates + pairs.apartDebates} debates in completed pairs`);

// ---------------------------------------------------------------------------------------------
// The leaderboard tab's query (web/src/features/leaderboard/leaderboard.api.ts)
const QUERY = `query Leaderboard($subject: LeaderboardSubject!, $pairsOnly: Boolean!) {
  leaderboard(subject: $subject, pairsOnly: $pairsOnly) {
    subject pairsOnly debates apartDebates bootstrapRounds computedAt
    notRated { sameSubject notRecorded personalityHints dailyLimit }
    rows { ...LeaderboardRowFields }
    apart { ...LeaderboardRowFields }
  }
}
fragment LeaderboardRowFields on LeaderboardRow {
  id label rating low high debates pairs audience { rating low high debates }
}`;

// The Judges tab's query (web/src/features/judges/judges.api.ts)
const FIGURE = 'value low high count';
const RECORD = `judgeId label kind debates
  positionConsistency { ${FIGURE} } firstShownMargin { ${FIGURE} }
  pairwiseAgreement { ${FIGURE} } fleissKappa { ${FIGURE} } selfPreference { ${FIGURE} }
  lengthSlope { ${FIGURE} }
  readersMinds { agreement { ${FIGURE} } kappa { ${FIGURE} } }
  readersVotes { agreement { ${FIGURE} } kappa { ${FIGURE} } }`;
const JUDGES_QUERY = `query Judges {
  judges { debates bootstrapRounds computedAt judges { ${RECORD} } all { ${RECORD} } }
}`;
const judgesRequest = {
  method: 'POST',
  path: '/graphql',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query: JUDGES_QUERY }),
};

/** One run of autocannon on the query (bench/community-load.mjs). */
const measure = (request, connectionCount, seconds) =>
  measureQuery(url, request, connectionCount, seconds);

const rows = [];
for (const subject of ['MODEL', 'STYLE']) {
  for (const pairsOnly of [false, true]) {
    const request = {
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERY, variables: { subject, pairsOnly } }),
    };
    await measure(request, 1, Math.min(1, duration)); // warm-up, not counted
    const alone = await measure(request, 1, duration);
    const loaded = await measure(request, connections, duration);
    rows.push({ query: `${subject}${pairsOnly ? ', pairs only' : ''}`, alone, loaded });
  }
}

{
  await measure(judgesRequest, 1, Math.min(1, duration)); // warm-up, not counted
  const alone = await measure(judgesRequest, 1, duration);
  const loaded = await measure(judgesRequest, connections, duration);
  rows.push({ query: 'Judges', alone, loaded });
}

// The same query while the boards are being recomputed: a share event every 50 ms (debates
// shared again), so that one recompute follows another, each after its pause.
{
  const request = {
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY, variables: { subject: 'MODEL', pairsOnly: false } }),
  };
  let sharing = true;
  let again = 0;
  const before = (await board('MODEL', false)).computedAt;
  const resharing = (async () => {
    while (sharing) {
      const debate = debates[again % debates.length];
      again += 1;
      await events.publish(debateSharedEvent, { debate }, `${debate.id}:again:${again}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const alone = await measure(request, 1, duration);
  const loaded = await measure(request, connections, duration);
  const judgesAlone = await measure(judgesRequest, 1, duration);
  const judgesLoaded = await measure(judgesRequest, connections, duration);
  sharing = false;
  await resharing;
  const after = await board('MODEL', false);
  rows.push({ query: 'MODEL, while recomputing', alone, loaded });
  rows.push({ query: 'Judges, while recomputing', alone: judgesAlone, loaded: judgesLoaded });
  console.log(
    `while recomputing: ${again} share events in ${4 * duration} s; the board was recomputed ` +
      `meanwhile (${before} -> ${after.computedAt}, last took ${after.computeMs} ms)`,
  );
}
await community.close();
await events.close();

const f = (value) => fixed(value, 1);
console.log(
  `\nthe leaderboard query through the gateway, ${debateCount} judged debates, ${duration} s per ` +
    `row and mode; server time = the gateway's Server-Timing. One at a time: 1 connection; ` +
    `loaded: ${connections} connections at once (server time then includes the queue)\n`,
);
console.log(
  '| board | one at a time: server p50 / p95 / p99 ms | req/s | ' +
    `loaded (${connections}): req/s | server p50 / p95 / p99 ms | errors |\n` +
    '| --- | --- | --- | --- | --- | --- |',
);
for (const { query, alone, loaded } of rows) {
  console.log(
    `| ${query} | ${f(alone.p50)} / ${f(alone.p95)} / ${f(alone.p99)} | ${Math.round(alone.rps)} ` +
      `| ${Math.round(loaded.rps)} | ${f(loaded.p50)} / ${f(loaded.p95)} / ${f(loaded.p99)} ` +
      `| ${alone.failures + loaded.failures} |`,
  );
}
const worst = (mode) => Math.max(...rows.map((row) => row[mode].p95));
console.log(
  `\nworst server p95: ${f(worst('alone'))} ms one at a time, ${f(worst('loaded'))} ms with ` +
    `${connections} at once (goal <= 30 ms)`,
);

await stop();
reportQueryFailures(rows);
