import { eventStreams, userCreatedEvent } from '@debate/contracts';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { serviceTransport } from '../bootstrap/run-service.js';
import { loadConfig, serviceEnvSchema } from '../config/load-config.js';
import {
  type RunningNats,
  type RunningNatsCluster,
  startNatsCluster,
  startNatsServer,
} from '../testing/nats-server.js';
import { natsTransport } from '../transport/transport.factory.js';
import { createEventLog, ensureStream, type EventLog, JetStreamEventLog } from './event-log.js';

const stream = eventStreams.identity;
const userCreated = {
  userId: 'replica-test',
  email: 'replica-test@example.org',
  createdAt: new Date('2026-01-01T00:00:00Z').toISOString(),
};

/** What a service's event log asked JetStream for, as the requests crossed the wire. */
interface StreamRequest {
  readonly action: 'CREATE' | 'UPDATE';
  readonly config: { readonly num_replicas?: number };
}

// A single nats-server holds one copy of a stream only (it refuses more: "replicas > 1 not
// supported in non-clustered mode"); the three copies a cluster keeps are observed by the
// system tier (platform/test/nats-cluster.test.ts). What is observed here is what the service asks for: the JetStream API requests are read on the
// wire by a second connection.
describe('the event log and its streams’ replicas (JetStream)', () => {
  let nats: RunningNats;
  let admin: NatsConnection;
  let requests: StreamRequest[] = [];
  const logs: EventLog[] = [];

  const serviceLog = (env: Record<string, string>) => {
    const log = createEventLog(
      serviceTransport(
        loadConfig('usage', serviceEnvSchema, { NATS_URL: nats.url, ...env }),
        'usage',
      ),
      { anonymous: 'replicas-test' },
    );
    logs.push(log);
    return log;
  };
  const asked = (action: StreamRequest['action']) =>
    requests.filter((request) => request.action === action).map((request) => request.config);

  beforeAll(async () => {
    nats = await startNatsServer();
    admin = await connect({ servers: nats.url });
    admin.subscribe(`$JS.API.STREAM.*.${stream.name}`, {
      callback: (error, message) => {
        const action = message.subject.split('.')[3];
        if (error || (action !== 'CREATE' && action !== 'UPDATE')) return;
        requests.push({ action, config: message.json() });
      },
    });
    await admin.flush();
  });

  beforeEach(async () => {
    const jsm = await jetstreamManager(admin);
    await jsm.streams.delete(stream.name).catch(() => undefined);
    await admin.flush();
    requests = [];
  });

  afterAll(async () => {
    for (const log of logs) await log.close();
    await admin?.close();
    await nats?.stop();
  });

  it('creates a stream with the replicas JETSTREAM_REPLICAS sets', async () => {
    const sut = serviceLog({ JETSTREAM_REPLICAS: '3' });

    // The lone server refuses three copies: the count reached it.
    await expect(sut.publish(userCreatedEvent, userCreated, 'event-1')).rejects.toThrow(
      /replicas > 1 not supported/,
    );
    await admin.flush();
    expect(asked('CREATE')).toEqual([expect.objectContaining({ num_replicas: 3 })]);
  });

  it('brings an existing stream to the replicas JETSTREAM_REPLICAS sets', async () => {
    const nc = await connect({ servers: nats.url });
    await ensureStream(nc, stream, 1);
    await nc.close();
    requests = [];

    const sut = serviceLog({ JETSTREAM_REPLICAS: '2' });
    // Whether the lone server accepts two copies on an update depends on its version; the
    // request is what is checked.
    await sut.publish(userCreatedEvent, userCreated, 'event-2').catch(() => undefined);
    await admin.flush();

    expect(asked('UPDATE')).toEqual([expect.objectContaining({ num_replicas: 2 })]);
  });

  it('asks for no count when JETSTREAM_REPLICAS is unset: a new stream gets one copy', async () => {
    const sut = serviceLog({});

    await sut.publish(userCreatedEvent, userCreated, 'event-3');
    await admin.flush();

    // Unset never scales an existing stream down; a new one gets the server's default, one.
    expect(asked('CREATE').map((config) => 'num_replicas' in config)).toEqual([false]);
  });

  it('asks for no count where none is configured (a stream keeps the one it has)', async () => {
    const sut = createEventLog(natsTransport(nats.url), { anonymous: 'replicas-test' });
    logs.push(sut);

    await sut.publish(userCreatedEvent, userCreated, 'event-4');
    await admin.flush();

    expect(asked('CREATE').map((config) => 'num_replicas' in config)).toEqual([false]);
  });
});

// A consumer may not create the stream it reads (natsPermissions): only its owner does, when it
// starts. A consumer that starts first does not hold its service's start: it consumes the stream
// once it is there.
describe('a consumer started before the owner of its stream', () => {
  let nats: RunningNats;
  const logs: JetStreamEventLog[] = [];
  const logOf = (...args: ConstructorParameters<typeof JetStreamEventLog>) => {
    const log = new JetStreamEventLog(...args);
    logs.push(log);
    return log;
  };

  beforeEach(async () => {
    nats = await startNatsServer();
  });

  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close();
    await nats.stop();
  });

  it('lets its service start, says it waits, then consumes every event once the owner is up', async () => {
    const problems: string[] = [];
    const received: string[] = [];
    const consumer = logOf({ url: nats.url }, 'usage');
    // Resolves at once: the stream is not there, and the service goes on starting.
    await consumer.subscribe(
      userCreatedEvent,
      'usage',
      async ({ userId }) => {
        received.push(userId);
      },
      { onProblem: (message) => problems.push(message) },
    );
    expect(problems).toEqual([
      expect.stringMatching(/IDENTITY_EVENTS does not exist yet: the identity service creates it/),
    ]);
    // It only looked: the stream is not there.
    const nc = await connect({ servers: nats.url });
    await expect((await jetstreamManager(nc)).streams.info(stream.name)).rejects.toThrow(
      /not found/i,
    );
    await nc.close();

    const owner = logOf({ url: nats.url }, 'identity');
    await owner.onApplicationBootstrap();
    await owner.publish(userCreatedEvent, userCreated, 'event-1');
    for (let attempt = 0; received.length === 0 && attempt < 50; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(received).toEqual([userCreated.userId]);
    expect(problems).toContainEqual('IDENTITY_EVENTS is there: consuming it');
  });

  it('stops waiting when it is closed', async () => {
    const consumer = logOf({ url: nats.url }, 'usage');
    await consumer.subscribe(userCreatedEvent, 'usage', async () => {});
    const closing = consumer.close();
    await expect(closing).resolves.toBeUndefined();
  });
});

// A cluster forming or electing a leader refuses JetStream's API for a while (it times out, is
// 'temporarily unavailable', finds no peers for three copies): a service starting then waits
// for it rather than failing its start.
describe('a stream made while its cluster has lost two of its three servers', () => {
  let cluster: RunningNatsCluster;

  beforeAll(async () => {
    cluster = await startNatsCluster();
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('is made with its three copies once the servers are back', async () => {
    const [first, second, third] = cluster.servers;
    if (!first || !second || !third) throw new Error('a cluster of three');
    const nc = await connect({ servers: first.url });
    try {
      await second.kill();
      await third.kill();
      let settled: string | undefined;
      const made = ensureStream(nc, stream, 3).then(
        () => (settled = 'made'),
        (error: unknown) => (settled = `failed: ${String(error)}`),
      );
      // Without a majority JetStream cannot answer: still waiting, not failed.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(settled).toBeUndefined();
      await second.start();
      await third.start();
      await made;
      expect(settled).toBe('made');
      const info = await (await jetstreamManager(nc)).streams.info(stream.name);
      expect(info.config.num_replicas).toBe(3);
    } finally {
      await nc.close();
    }
  }, 90_000);
});
