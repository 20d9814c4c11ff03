// Shares `debates` debates through debates.debate.shared on JetStream, as the debates service
// does (sharedAt spread over the last 60 days, 1 or 2 categories each), waits until the
// community service has them all, then casts `votes` votes through its own subject. For the
// benchmarks; the platform must run over the NATS at `natsUrl`.
import { communityDebateContracts, debateCategories, debateSharedEvent } from '@debate/contracts';
import { createClientProxy, JetStreamEventLog, natsTransport, ServiceClient } from '@debate/nest';

const DAY = 24 * 60 * 60_000;
const pick = (list) => list[Math.floor(Math.random() * list.length)];

async function inBatches(items, size, work) {
  for (let start = 0; start < items.length; start += size) {
    await Promise.all(items.slice(start, start + size).map((item, i) => work(item, start + i)));
  }
}

export async function seedCommunity({ natsUrl, debates: count, votes: voteCount }) {
  const events = new JetStreamEventLog({ url: natsUrl }, { anonymous: 'bench-seed' });
  const community = new ServiceClient(
    createClientProxy(natsTransport(natsUrl), { anonymous: 'bench-seed' }),
  );
  const now = Date.now();
  const rounds = [1, 2, 3].flatMap((round) => [
    { speaker: 'First Speaker', round, text: 'An argument. '.repeat(80), summary: 'A summary.' },
    { speaker: 'Second Speaker', round, text: 'A rebuttal. '.repeat(80), summary: 'A summary.' },
  ]);
  const ids = Array.from({ length: count }, (_, i) => `bench-${String(i).padStart(6, '0')}`);
  try {
    let started = Date.now();
    await inBatches(ids, 200, async (id, index) => {
      const sharedAt = new Date(now - (index * 60 * DAY) / count - 1000).toISOString();
      const debate = {
        id,
        userId: `author-${index % 500}`,
        userDisplayName: `Author ${index % 500}`,
        topic: `Benchmark debate ${index}: should the motion pass?`,
        categories: [...new Set([pick(debateCategories), pick(debateCategories)])],
        timestamp: sharedAt,
        sharedAt,
        views: 0,
        upvotes: 0,
        downvotes: 0,
        isPublic: true,
        isPro: false,
        model1: { name: 'offline', stance: 0.6, rhetoricStyle: 'formal', writtenBy: null },
        model2: { name: 'offline', stance: -0.6, rhetoricStyle: 'casual', writtenBy: null },
        rounds,
      };
      await events.publish(debateSharedEvent, { debate }, `${id}:${sharedAt}`);
    });
    // The consumer takes events in order: once the last is public, all are.
    for (;;) {
      const { debate } = await community.request(communityDebateContracts.get, {
        debateId: ids.at(-1),
        countView: false,
      });
      if (debate) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const sharedSeconds = (Date.now() - started) / 1000;

    started = Date.now();
    const voters = Array.from({ length: 200 }, (_, i) => `voter-${i}`);
    const kinds = ['FOR', 'FOR', 'AGAINST', 'INTERESTING'];
    await inBatches(Array.from({ length: voteCount }), 200, async () => {
      await community.request(communityDebateContracts.vote, {
        voterId: pick(voters),
        debateId: pick(ids),
        kind: pick(kinds),
      });
    });
    const voteSeconds = (Date.now() - started) / 1000;
    return {
      ids,
      summary:
        `seeded ${count} debates in ${sharedSeconds.toFixed(1)} s ` +
        `(${Math.round(count / sharedSeconds)}/s through JetStream), ${voteCount} votes in ` +
        `${voteSeconds.toFixed(1)} s (${Math.round(voteCount / Math.max(voteSeconds, 0.001))}/s)`,
    };
  } finally {
    await community.close();
    await events.close();
  }
}
