// The fault run's reconciliation: what k6 saw acknowledged (deploy/k6/lib/steady.ts) against
// the services' stores (each service's own database on the run's store, read with the mongodb
// driver) and the GraphQL API.
//   - every acknowledged vote and star counted: each voter's mark on each debate is the last one
//     acknowledged (or one asked after it whose answer never came), and each public debate's
//     tallies equal the votes it keeps;
//   - every saved debate present, every shared one public in the debates service and in the
//     community's copy;
//   - every free debate taken exactly once: a new account that started one debate has it taken
//     once (its allowance 2 - 1), or given back when its run did not complete, never twice;
//   - the rankings list every public debate, and the leaderboard has read every one and counts
//     as many as the debates its ratings say it counts.
import { MongoClient } from 'mongodb';
import { allowedFinal } from './figures.mjs';

/** The account a k6 run signs up is new: its free allowance (the usage service's rule). */
const FREE_ON_CREATION = 2;
const VOTE_COUNTERS = { FOR: 'upvotes', AGAINST: 'downvotes', INTERESTING: 'interesting' };

const RANKING_PAGE = `query ($after: String) {
  communityDebates(sort: MOST_RECENT, period: ALL_TIME, limit: 50, after: $after) { debates { id } next }
}`;
const LEADERBOARD = `{
  leaderboard(subject: MODEL) {
    debates apartDebates computedAt
    notRated { sameSubject notRecorded personalityHints dailyLimit }
  }
}`;

async function graphql(entry, query, variables = {}) {
  const response = await fetch(`${entry}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.json();
  if (!response.ok || body.errors?.length) {
    throw new Error(`${response.status} ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
  }
  return body.data;
}

/** One key per voter and debate, their writes in the order they were made. */
function byVoterAndDebate(writes, kind) {
  const marks = new Map();
  for (const write of writes.filter((w) => w.w === kind)) {
    const key = `${write.voter}\n${write.debate}`;
    if (!marks.has(key)) marks.set(key, []);
    marks.get(key).push(write);
  }
  return marks;
}

/**
 * Reads the stores once and checks every acknowledged write: `lost`, each acknowledged write
 * the stores do not show (with when it was acknowledged, `t`, and why), `checked` how many
 * acknowledged writes were checked, and `problems`, the inconsistencies that are no one write's
 * (tallies, rankings, leaderboard).
 */
export async function reconcile({ mongoUrl, entry, writes }) {
  const client = new MongoClient(mongoUrl, { serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  try {
    const community = client.db('community');
    const publicDebates = await community
      .collection('public_debates')
      .find(
        {},
        {
          projection: {
            votes: 1,
            upvotes: 1,
            downvotes: 1,
            interesting: 1,
            removedAt: 1,
            rating: 1,
            'model1.writtenBy.kind': 1,
            'model2.writtenBy.kind': 1,
          },
        },
      )
      .toArray();
    const publicById = new Map(publicDebates.map((debate) => [debate._id, debate]));
    const lost = [];
    let checked = 0;

    // Votes: the mark each voter's writes allow, and the one the debate keeps.
    for (const [key, marks] of byVoterAndDebate(writes, 'vote')) {
      const acknowledged = marks.filter((write) => write.acknowledged);
      checked += acknowledged.length;
      if (acknowledged.length === 0) continue;
      const [voter, debateId] = key.split('\n');
      const stored = publicById.get(debateId)?.votes?.[voter] ?? null;
      const allowed = allowedFinal(marks, null);
      if (!allowed.has(stored)) {
        lost.push({
          w: 'vote',
          t: acknowledged.at(-1).t,
          why: `voter ${voter} on ${debateId}: stored ${stored ?? 'none'}, acknowledged ${[...allowed].map((v) => v ?? 'none').join(' or ')}`,
        });
      }
    }

    // Stars: the same, a star being there or not.
    const stars = await community
      .collection('stars')
      .find({}, { projection: { userId: 1, debateId: 1 } })
      .toArray();
    const starred = new Set(stars.map((star) => `${star.userId}\n${star.debateId}`));
    for (const [key, marks] of byVoterAndDebate(writes, 'star')) {
      const acknowledged = marks.filter((write) => write.acknowledged);
      checked += acknowledged.length;
      const allowed = allowedFinal(marks, false, { toggle: true });
      if (acknowledged.length === 0 || !allowed) continue;
      if (!allowed.has(starred.has(key))) {
        lost.push({
          w: 'star',
          t: acknowledged.at(-1).t,
          why: `star ${key.replace('\n', ' on ')}: stored ${starred.has(key)}, acknowledged ${[...allowed].join(' or ')}`,
        });
      }
    }

    // Saved and shared debates.
    const saves = writes.filter((write) => write.acknowledged && write.w === 'save');
    const shares = writes.filter((write) => write.acknowledged && write.w === 'share');
    const savedIds = [...saves, ...shares].map((write) => write.id);
    const saved = new Map(
      (
        await client
          .db('debates')
          .collection('debates')
          .find({ _id: { $in: savedIds } }, { projection: { sharedAt: 1, deletedAt: 1 } })
          .toArray()
      ).map((debate) => [debate._id, debate]),
    );
    for (const write of saves) {
      checked += 1;
      const debate = saved.get(write.id);
      if (!debate || debate.deletedAt) {
        lost.push({ w: 'save', t: write.t, why: `saved debate ${write.id} is not in the store` });
      }
    }
    for (const write of shares) {
      checked += 1;
      const why = !saved.get(write.id)?.sharedAt
        ? 'not shared in the debates service'
        : !publicById.has(write.id) || publicById.get(write.id).removedAt
          ? "not in the community's public debates"
          : undefined;
      if (why) lost.push({ w: 'share', t: write.t, why: `shared debate ${write.id}: ${why}` });
    }

    // Free debates: one taken per acknowledged start, given back only for a run that failed.
    const starts = writes.filter((write) => write.acknowledged && write.w === 'start');
    const completed = new Set(
      writes
        .filter((write) => write.w === 'run' && write.completed)
        .map((write) => write.runId)
        .concat(saves.map((write) => write.runId)),
    );
    const usage = new Map(
      (
        await client
          .db('usage')
          .collection('debateUsage')
          .find(
            { email: { $in: starts.map((write) => write.email) } },
            { projection: { email: 1, totalDebates: 1, freeDebatesRemaining: 1 } },
          )
          .toArray()
      ).map((record) => [record.email, record]),
    );
    for (const write of starts) {
      checked += 1;
      const record = usage.get(write.email);
      const taken = record ? FREE_ON_CREATION - record.freeDebatesRemaining : undefined;
      const why = !record
        ? 'no usage record'
        : taken !== record.totalDebates || taken > 1
          ? `taken ${taken} times (total ${record.totalDebates})`
          : taken === 0 && completed.has(write.runId)
            ? 'given back, though its run completed'
            : undefined;
      if (why)
        lost.push({ w: 'start', t: write.t, why: `free debate of run ${write.runId}: ${why}` });
    }

    // What is no one write's: the tallies, the rankings, the leaderboard.
    const problems = [];
    const shown = publicDebates.filter((debate) => !debate.removedAt);
    const untallied = shown.filter((debate) =>
      Object.entries(VOTE_COUNTERS).some(
        ([kind, counter]) =>
          (debate[counter] ?? 0) !==
          Object.values(debate.votes ?? {}).filter((vote) => vote === kind).length,
      ),
    );
    if (untallied.length > 0) {
      problems.push(
        `tallies: ${untallied.length} public debate(s) whose counters are not their votes (${untallied
          .slice(0, 3)
          .map((d) => d._id)
          .join(', ')})`,
      );
    }

    const ranked = new Set();
    let after = null;
    do {
      const page = (await graphql(entry, RANKING_PAGE, { after })).communityDebates;
      for (const debate of page.debates) ranked.add(debate.id);
      after = page.next;
    } while (after);
    const unranked = shown.filter((debate) => !ranked.has(debate._id));
    if (unranked.length > 0 || ranked.size !== shown.length) {
      problems.push(
        `rankings: list ${ranked.size} debates of ${shown.length} public (missing ${unranked
          .slice(0, 3)
          .map((d) => d._id)
          .join(', ')})`,
      );
    }

    const board = (await graphql(entry, LEADERBOARD)).leaderboard;
    const counted =
      board.debates + board.apartDebates + Object.values(board.notRated).reduce((a, b) => a + b, 0);
    const person = (debate) =>
      debate.model1?.writtenBy?.kind === 'person' || debate.model2?.writtenBy?.kind === 'person';
    const unread = shown.filter((debate) => !debate.rating);
    const judged = shown.filter(
      (debate) => debate.rating && debate.rating !== 'NOT_JUDGED' && !person(debate),
    ).length;
    if (unread.length > 0) {
      problems.push(`leaderboard: ${unread.length} public debate(s) it has not read yet`);
    } else if (counted !== judged) {
      problems.push(
        `leaderboard: counts ${counted} judged debates (computed ${board.computedAt}), the debates' ratings ${judged}`,
      );
    }
    return {
      lost,
      checked,
      problems,
      figures: { publicDebates: shown.length, ranked: ranked.size, leaderboard: counted, judged },
    };
  } finally {
    await client.close();
  }
}
