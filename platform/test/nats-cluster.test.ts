import {
  communityDebateContracts,
  debateSharedEvent,
  eventStreams,
  generationContracts,
  runInstanceKey,
} from '@debate/contracts';
import {
  createClientProxy,
  instanceSubject,
  JetStreamEventLog,
  natsServers,
  natsTransport,
  ServiceClient,
} from '@debate/nest';
import type { ClusterServer } from '@debate/nest/testing';
import { sharedDebateOf } from '@debate/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { settingsOf } from './fixtures.js';
import {
  collectSubscription,
  graphql,
  type SignedUp,
  signUpThroughGateway,
} from './graphql-client.js';
import { startTestPlatformOverNatsCluster } from './test-platform.js';

type ClusterPlatform = Awaited<ReturnType<typeof startTestPlatformOverNatsCluster>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server of the cluster that holds the connection named `name`, by its /connz. */
async function serverOf(servers: readonly ClusterServer[], name: string): Promise<ClusterServer> {
  for (const server of servers) {
    const connz = (await (await fetch(`${server.monitorUrl}/connz?limit=1024`)).json()) as {
      connections?: { name?: string }[];
    };
    if (connz.connections?.some((connection) => connection.name === name)) return server;
  }
  throw new Error(`No server holds a connection named ${name}`);
}

/**
 * The server of the cluster that holds the connection named `name` subscribed to `subject`
 * (a service's request connection, not its client's), by its /connz.
 */
async function serverSubscribing(
  servers: readonly ClusterServer[],
  name: string,
  subject: string,
): Promise<ClusterServer> {
  for (const server of servers) {
    const connz = (await (await fetch(`${server.monitorUrl}/connz?limit=1024&subs=1`)).json()) as {
      connections?: { name?: string; subscriptions_list?: string[] }[];
    };
    if (
      connz.connections?.some(
        (connection) =>
          connection.name === name && connection.subscriptions_list?.includes(subject),
      )
    ) {
      return server;
    }
  }
  throw new Error(`No server holds ${name}'s subscription to ${subject}`);
}

/**
 * The server that leads `durable`'s JetStream consumer of shared debates: the one its pulls
 * wait on, so the one whose loss a consumer must notice by itself.
 */
async function consumerLeaderOf(
  servers: readonly ClusterServer[],
  durable: string,
): Promise<ClusterServer> {
  const nc = await connect({ servers: servers.map((server) => server.url) });
  try {
    const jsm = await jetstreamManager(nc);
    const stream = eventStreams.debates;
    for await (const consumer of jsm.consumers.list(stream.name)) {
      if (
        consumer.name.startsWith(durable) &&
        consumer.config.filter_subject === debateSharedEvent.subject
      ) {
        const leader = servers.find((server) => server.name === consumer.cluster?.leader);
        if (leader) return leader;
      }
    }
  } finally {
    await nc.close();
  }
  throw new Error(`No leader for ${durable}'s consumer of ${debateSharedEvent.subject}`);
}

const START = 'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }';
const VOTE =
  'mutation ($id: String!) { vote(debateId: $id, kind: FOR) { upvotes downvotes myVote } }';
const CARDS = '{ communityDebates { debates { id upvotes } next } }';

// Production's NATS: three servers clustered, every stream at 3 replicas. A server lost under
// a service (killed, no goodbye) must not lose it its requests or its events.
describe('the platform on a three-server NATS cluster', () => {
  let running: ClusterPlatform;
  let community: ServiceClient;
  let events: JetStreamEventLog;
  let ada: SignedUp;

  beforeAll(async () => {
    // Debates written at a reader's pace: a run is still being written when a server is lost.
    running = await startTestPlatformOverNatsCluster({
      speakers: { OFFLINE_TOKENS_PER_SECOND: 60, OFFLINE_FIRST_TOKEN_MS: 0, TURN_PAUSE_MS: 200 },
    });
    community = new ServiceClient(
      createClientProxy(natsTransport(running.natsUrl), { anonymous: 'cluster-test' }),
    );
    events = new JetStreamEventLog({ url: running.natsUrl }, { anonymous: 'cluster-test' });
    ada = await signUpThroughGateway(running.platform.url, 'ada@example.org');
  }, 60_000);

  afterAll(async () => {
    await events?.close();
    await community?.close();
    await running?.teardown();
  });

  it('keeps every stream on all three servers', async () => {
    const nc = await connect({ servers: natsServers(running.natsUrl) });
    try {
      const jsm = await jetstreamManager(nc);
      for (const stream of Object.values(eventStreams)) {
        const info = await jsm.streams.info(stream.name);
        expect([info.config.name, info.config.num_replicas]).toEqual([stream.name, 3]);
        // The leader and two current followers.
        expect(info.cluster?.replicas?.filter((replica) => replica.current)).toHaveLength(2);
      }
    } finally {
      await nc.close();
    }
  });

  // For the community service's request connection, then its events' connection: the server
  // that holds it is killed; its requests are answered and its events consumed all the same.
  it.each([
    ['holds its requests’ connection', 'requests'],
    ['leads its consumer of shared debates', 'events'],
  ] as const)(
    'carries on when the server that %s is killed',
    async (_, what) => {
      const { platform, cluster } = running;
      const victim =
        what === 'requests'
          ? await serverOf(cluster.servers, 'community')
          : await consumerLeaderOf(cluster.servers, 'community');
      const debateId = `cluster-${what}`;
      await victim.kill();
      const killedAt = Date.now();
      try {
        // Requests: through the gateway to the community service, at once and again.
        const outcomes: { sentAt: number; ok: boolean; code?: unknown }[] = [];
        while (Date.now() - killedAt < 5_000) {
          const sentAt = Date.now();
          const result = await graphql<{ communityDebates: { debates: unknown[] } }>(
            platform.url,
            CARDS,
          );
          outcomes.push({
            sentAt,
            ok: !result.errors,
            code: result.errors?.[0]?.extensions?.['code'],
          });
          await sleep(100);
        }
        // A request fails only in the moment the client moves to another server (a clear
        // SERVICE_UNAVAILABLE), and none after the first second.
        const failed = outcomes.filter((outcome) => !outcome.ok);
        expect(failed.every((outcome) => outcome.code === 'SERVICE_UNAVAILABLE')).toBe(true);
        const late = outcomes.filter((outcome) => outcome.sentAt - killedAt >= 2_000);
        expect(late.length).toBeGreaterThan(10);
        expect(late.every((outcome) => outcome.ok)).toBe(true);

        // Events: a debate shared now reaches the community service's consumer.
        // A publish waits for the stream's leader; while JetStream elects a new one it times
        // out, and the publisher tries again, as the debates service's outbox does.
        const sharedAt = Date.now();
        for (;;) {
          const published = await events
            .publish(debateSharedEvent, { debate: sharedDebateOf(debateId) }, `${debateId}:shared`)
            .then(
              () => true,
              () => false,
            );
          if (published) break;
          expect(Date.now() - sharedAt).toBeLessThan(15_000);
        }
        // (nats.js pulls again within 5 s once the server that led the consumer is gone.)
        let shared = null;
        while (shared === null && Date.now() - sharedAt < 20_000) {
          ({ debate: shared } = await community.request(communityDebateContracts.get, {
            debateId,
            countView: false,
          }));
          if (shared === null) await sleep(50);
        }
        expect(shared?.id).toBe(debateId);

        // And a vote on it is acknowledged and counted, with the server still down.
        const vote = await graphql<{ vote: { upvotes: number; myVote: string } }>(
          platform.url,
          VOTE,
          { variables: { id: debateId }, headers: { authorization: `Bearer ${ada.token}` } },
        );
        // (A shared debate starts with its author's upvote.)
        expect(vote.data).toEqual({ vote: { upvotes: 2, downvotes: 0, myVote: 'FOR' } });
        expect(await victim.healthy()).toBe(false);
      } finally {
        await victim.start();
      }
    },
    60_000,
  );
  // A streamed reply outlives the responder's connection to one server: the run's events come
  // from the generation service by name (natsStreamInboxPrefix), not by the reply grant the
  // lost server held (allow_responses), with which the watch stalled for ever.
  it('streams a watched run to its end when the server its generation instance is on is killed', async () => {
    const { platform, cluster } = running;
    const token = (await signUpThroughGateway(platform.url, 'grace@example.org')).token;
    const started = await graphql<{ startDebate: string }>(platform.url, START, {
      headers: { authorization: `Bearer ${token}` },
      variables: {
        settings: { ...settingsOf('Should the tide tables be public?'), moderatorEnabled: false },
      },
    });
    const runId = started.data?.startDebate ?? '';
    expect(started.errors).toBeUndefined();
    const watched = collectSubscription<{ debateRun: { type: string } }>(
      platform.url,
      'subscription ($id: String!) { debateRun(id: $id) { type } }',
      Number.MAX_SAFE_INTEGER,
      { accessToken: token, variables: { id: runId } },
    );
    await sleep(1_000);
    const victim = await serverSubscribing(
      cluster.servers,
      'generation',
      instanceSubject(generationContracts.watch.subject, runInstanceKey(runId) ?? ''),
    );
    await victim.kill();
    try {
      // (A gateway on the same server misses the events sent while it moves: core NATS.)
      const events = (await watched).map((item) => item.debateRun.type);
      expect(events.at(-1)).toBe('runCompleted');
    } finally {
      await victim.start();
    }
  }, 60_000);
});
