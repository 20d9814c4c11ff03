import {
  debateCategories,
  debatesContracts,
  eventStreams,
  natsAuthorization,
  type NatsDeployable,
  subjects,
  usageContracts,
} from '@debate/contracts';
import { defaultGatewayLimits } from '@debate/gateway';
import {
  createClientProxy,
  natsConnectionOptions,
  natsTransport,
  ServiceClient,
} from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectSubscription, graphql, signUpThroughGateway } from './graphql-client.js';
import { type NatsTestPlatform, startTestPlatformOverNats } from './test-platform.js';

const START = 'mutation ($settings: DebateSettingsInput!) { startDebate(settings: $settings) }';
const WATCH = 'subscription ($id: String!) { debateRun(id: $id) { type } }';
const SAVE =
  'mutation ($runId: String!, $categories: [String!]!) { saveDebate(runId: $runId, categories: $categories) { id } }';
const SHARE = 'mutation ($id: String!) { shareDebate(id: $id) { id } }';
const COMMUNITY_DEBATE = 'query ($id: String!) { communityDebate(id: $id) { id topic } }';

const settings = {
  topic: 'Should every service hold its own keys?',
  debateFormat: 'structured',
  moderatorEnabled: false,
  first: { model: 'offline', stance: 0.6, rhetoricStyle: 'formal', personality: '' },
  second: { model: 'offline', stance: -0.6, rhetoricStyle: 'casual', personality: '' },
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The broker as start:cluster runs it (natsAuthorization, nothing more: no user for
// unauthenticated clients), and the platform on it, each deployable as its own NATS user.
describe('NATS permissions', () => {
  const logDir = mkdtempSync(join(tmpdir(), 'nats-permissions-'));
  const logFile = join(logDir, 'nats-server.log');
  const violations = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => /violation/i.test(line));
  let running: NatsTestPlatform;
  let url: string;
  const connections: NatsConnection[] = [];

  /** A raw connection as `deployable`, with its own credentials and inbox prefix. */
  const connectAs = async (deployable: NatsDeployable): Promise<NatsConnection> => {
    const nc = await connect({
      ...natsConnectionOptions(
        { url: running.natsUrl, users: { [deployable]: credentialsOf(deployable) } },
        deployable,
        `${deployable}-impostor`,
      ),
      waitOnFirstConnect: false,
      maxReconnectAttempts: 0,
    });
    connections.push(nc);
    return nc;
  };
  const credentialsOf = (deployable: NatsDeployable) => ({
    user: deployable,
    password: running.natsPasswords[deployable],
  });
  /** The typed client a deployable calls other services with, with its credentials. */
  const clientAs = (deployable: NatsDeployable) =>
    new ServiceClient(
      createClientProxy(
        natsTransport(running.natsUrl, { users: { [deployable]: credentialsOf(deployable) } }),
        deployable,
      ),
      2_000,
    );

  beforeAll(async () => {
    running = await startTestPlatformOverNats(
      {
        speakers: { OFFLINE_TOKENS_PER_SECOND: 0, OFFLINE_FIRST_TOKEN_MS: 0, TURN_PAUSE_MS: 0 },
        // The shipped rate limits: the gateway counts in its key-value buckets.
        limits: defaultGatewayLimits(),
      },
      (passwords) => `log_file: "${logFile}"\n${natsAuthorization(passwords)}`,
    );
    url = running.platform.url;
  }, 30_000);

  afterAll(async () => {
    for (const nc of connections) if (!nc.isClosed()) await nc.close();
    await running?.teardown();
    rmSync(logDir, { recursive: true, force: true });
  });

  it('runs the platform end to end, every deployable within its permissions', async () => {
    const { token } = await signUpThroughGateway(url, 'ada@example.org');
    const auth = { authorization: `Bearer ${token}` };
    const started = await graphql<{ startDebate: string }>(url, START, {
      headers: auth,
      variables: { settings },
    });
    expect(started.errors).toBeUndefined();
    const runId = started.data?.startDebate ?? '';
    const events = await collectSubscription<{ debateRun: { type: string } }>(url, WATCH, 1_000, {
      accessToken: token,
      variables: { id: runId },
    });
    expect(events.at(-1)?.debateRun.type).toBe('runCompleted');
    const saved = await graphql<{ saveDebate: { id: string } }>(url, SAVE, {
      headers: auth,
      variables: { runId, categories: [debateCategories[0]] },
    });
    expect(saved.errors).toBeUndefined();
    const id = saved.data?.saveDebate.id ?? '';
    const shared = await graphql<{ shareDebate: { id: string } }>(url, SHARE, {
      headers: auth,
      variables: { id },
    });
    expect(shared.errors).toBeUndefined();
    // The debates service's event reaches the community service's durable consumer.
    let publicCopy = await graphql<{ communityDebate: { topic: string } }>(url, COMMUNITY_DEBATE, {
      variables: { id },
    });
    for (let attempt = 0; publicCopy.errors && attempt < 100; attempt += 1) {
      await sleep(50);
      publicCopy = await graphql(url, COMMUNITY_DEBATE, { variables: { id } });
    }
    expect(publicCopy.data?.communityDebate.topic).toBe(settings.topic);
    // The gateway counted those requests in its shared bucket, not in its memory.
    const gateway = await connectAs('gateway');
    const bucket = await (await jetstreamManager(gateway)).streams.info('KV_rate_limits');
    expect(bucket.state.messages).toBeGreaterThan(0);

    expect(violations()).toEqual([]);
  }, 30_000);

  it('refuses a connection without credentials', async () => {
    await expect(
      connect({ servers: running.natsUrl, waitOnFirstConnect: false, maxReconnectAttempts: 0 }),
    ).rejects.toThrow(/authorization/i);
  });

  it("does not let the community service's credentials call the usage service", async () => {
    const request = { userId: 'someone' };
    // The debates service's may, for the same request: the usage service is there and answers.
    const debates = clientAs('debates');
    await expect(debates.request(usageContracts.lastRun, request)).resolves.toBeDefined();
    await debates.close();

    const community = clientAs('community');
    await expect(community.request(usageContracts.lastRun, request)).rejects.toThrow();
    await expect(
      community.request(usageContracts.stats, { ...request, email: 'someone@example.org' }),
    ).rejects.toThrow();
    await community.close();
    expect(violations().join('\n')).toMatch(/User "community".*usage\.lastrun\.get/);
  });

  it("does not let a consumer's credentials create or update the stream it reads", async () => {
    const stream = eventStreams.debates;
    const community = await jetstreamManager(await connectAs('community'), { timeout: 1_000 });
    // It may see that the stream is there (it waits for it at start-up), nothing more.
    await expect(community.streams.info(stream.name)).resolves.toBeDefined();
    // Adding `usage.>` would have JetStream acknowledge usage requests in the usage service's place.
    await expect(
      community.streams.update(stream.name, { subjects: [...stream.subjects, 'usage.>'] }),
    ).rejects.toThrow();
    // A limit of one message would purge the rest.
    await expect(community.streams.update(stream.name, { max_msgs: 1 })).rejects.toThrow();
    await expect(
      community.streams.add({ name: 'COMMUNITY_OWN', subjects: ['community.x'] }),
    ).rejects.toThrow();
    const usage = await jetstreamManager(await connectAs('usage'), { timeout: 1_000 });
    await expect(
      usage.streams.update(eventStreams.identity.name, { max_msgs: 1 }),
    ).rejects.toThrow();

    // The owner's stream is as the owner made it.
    const debates = await jetstreamManager(await connectAs('debates'));
    const info = await debates.streams.info(stream.name);
    expect(info.config.subjects).toEqual([...stream.subjects]);
    expect(info.config.max_msgs).toBe(-1);
    const refused = violations().join('\n');
    expect(refused).toMatch(
      /Publish Violation.*User "community".*\$JS\.API\.STREAM\.UPDATE\.DEBATES_EVENTS/,
    );
    expect(refused).toMatch(
      /Publish Violation.*User "usage".*\$JS\.API\.STREAM\.UPDATE\.IDENTITY_EVENTS/,
    );
  });

  it("does not let the community service's credentials read the debates service's requests, nor anyone's replies", async () => {
    const community = await connectAs('community');
    const overheard: string[] = [];
    const listening = [subjects.debates.debate.list, 'debates.>', '_INBOX_gateway.>', '_INBOX.>'];
    for (const subject of listening) {
      community.subscribe(subject, {
        callback: (error, message) => {
          if (!error) overheard.push(message.subject);
        },
      });
    }
    await community.flush();
    // The gateway asks the debates service something: its request and the reply pass by.
    const gateway = clientAs('gateway');
    await expect(
      gateway.request(debatesContracts.list, { userId: 'someone', order: 'newest', limit: 5 }),
    ).resolves.toBeDefined();
    await gateway.close();
    await community.flush();
    expect(overheard).toEqual([]);
    const refused = violations().join('\n');
    expect(refused).toMatch(/Subscription Violation.*User "community".*debates\.debate\.list/);
    expect(refused).toMatch(/Subscription Violation.*User "community".*_INBOX_gateway\.>/);
  });
});
