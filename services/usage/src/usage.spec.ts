import { eventStreams, usageContracts, userCreatedEvent } from '@debate/contracts';
import { start as startStore } from '@debate/embedded-mongo';
import {
  createClientProxy,
  JetStreamEventLog,
  natsTransport,
  ServiceClient,
  startService,
} from '@debate/nest';
import { type RunningNats, startNatsServer } from '@debate/nest/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestMicroservice } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageServiceModule } from './usage-service.module.js';

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The usage service as it runs: over real NATS, JetStream delivering identity's events.
describe('the usage service', () => {
  let dataDir: string;
  let store: Awaited<ReturnType<typeof startStore>>;
  let nats: RunningNats;
  let service: INestMicroservice | undefined;
  let client: ServiceClient;
  let identityEvents: JetStreamEventLog;

  const startUsage = async () => {
    const transport = natsTransport(nats.url);
    service = await startService({
      service: 'usage',
      module: UsageServiceModule.register({
        logLevel: 'silent',
        transport,
        mongoUrl: store.uri,
      }),
      transport,
    });
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'usage-service-'));
    store = await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
    nats = await startNatsServer();
    identityEvents = new JetStreamEventLog({ url: nats.url }, { anonymous: 'identity-test' });
    client = new ServiceClient(
      createClientProxy(natsTransport(nats.url), { anonymous: 'usage-test' }),
      10_000,
    );
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    await service?.close();
    await identityEvents?.close();
    await nats?.stop();
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sets up users announced while it was down, once each, with 2 free debates', async () => {
    const created = new Date('2026-01-01T00:00:00Z').toISOString();
    for (const userId of ['early-1', 'early-2']) {
      await identityEvents.publish(
        userCreatedEvent,
        { userId, email: `${userId}@example.org`, createdAt: created },
        userId,
      );
    }
    await startUsage();
    const stats = await until(
      () =>
        client.request(usageContracts.stats, { userId: 'early-1', email: 'early-1@example.org' }),
      (value) => value.createdAt === created,
    );
    expect(stats).toMatchObject({
      freeDebatesRemaining: 2,
      totalDebates: 0,
      nextFreeDebateAt: null,
    });
    expect(eventStreams.identity.name).toBe('IDENTITY_EVENTS');
  });

  it('starts exactly 2 of 50 parallel debates of a user with 2 free, every time', async () => {
    for (let round = 0; round < 3; round += 1) {
      const userId = `racer-${round}`;
      const email = `${userId}@example.org`;
      await identityEvents.publish(
        userCreatedEvent,
        { userId, email, createdAt: new Date().toISOString() },
        userId,
      );
      await until(
        () => client.request(usageContracts.stats, { userId, email }),
        (value) => value.freeDebatesRemaining === 2,
      );
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          client.request(usageContracts.consume, { userId, email, runId: `run-${index}` }),
        ),
      );
      expect(answers.filter((answer) => answer.granted)).toHaveLength(2);
      const stats = await client.request(usageContracts.stats, { userId, email });
      expect(stats).toMatchObject({ freeDebatesRemaining: 0, totalDebates: 2 });
      // None left: the next comes the first millisecond more than 6 days after the last start.
      expect(
        Date.parse(stats.nextFreeDebateAt ?? '') - Date.parse(stats.lastDebateStarted ?? ''),
      ).toBe(6 * 24 * 60 * 60 * 1000 + 1);
    }
  }, 60_000);

  it('gives the debate of a failed run back', async () => {
    const userId = 'refunded';
    const email = 'refunded@example.org';
    await client.request(usageContracts.consume, { userId, email, runId: 'broken-run' });
    expect(
      (await client.request(usageContracts.stats, { userId, email })).freeDebatesRemaining,
    ).toBe(1);
    expect(
      await client.request(usageContracts.refund, {
        userId,
        runId: 'broken-run',
        tokensIn: 0,
        tokensOut: 0,
      }),
    ).toEqual({
      refunded: true,
    });
    expect(await client.request(usageContracts.stats, { userId, email })).toMatchObject({
      freeDebatesRemaining: 2,
      totalDebates: 0,
    });
  });
});
