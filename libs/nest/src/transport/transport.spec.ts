import {
  catalogContracts,
  ContractViolation,
  defineStream,
  type GenerationCatalog,
  subjects,
  usageContracts,
} from '@debate/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { firstValueFrom, from, toArray } from 'rxjs';
import { z } from 'zod';
import { ServiceCoreModule } from '../bootstrap/service-core.module.js';
import { natsRequestMetrics } from '../operations/metrics.js';
import { startService } from '../bootstrap/start-service.js';
import { ServiceClient, ServiceError, ServiceUnavailableError } from '../client/service-client.js';
import { HandleRequest } from '../rpc/handle.decorator.js';
import { type RunningNats, startNatsServer } from '../testing/nats-server.js';
import {
  createClientProxy,
  inProcessTransport,
  natsTransport,
  type TransportClient,
  type TransportConfig,
} from './transport.factory.js';

// A streamed reply on an existing subject: the transports route by subject, not by contract.
const countdown = defineStream(
  subjects.generation.catalog.get,
  z.object({ from: z.number().int().min(1).max(20) }).strict(),
  z.object({ value: z.number().int() }).strict(),
);

const catalog: GenerationCatalog = {
  rhetoricStyles: ['standard'],
  debateFormats: ['structured'],
  models: [
    {
      id: 'offline',
      label: 'Offline speaker',
      kind: 'offline',
      status: 'ok',
      speakerMode: 'single',
    },
  ],
  searcher: false,
  localModel: null,
  roundTitles: ['Constructive Arguments'],
  topics: ['Should cities ban cars?'],
};

type Mode = 'request' | 'stream' | 'failing' | 'slow' | 'invalid reply' | 'invalid item';

/** The handler of the test service; `calls` counts what each instance answered. */
function createTestModule(instance: string, calls: Map<string, number>, mode: Mode) {
  @Controller()
  class TestController {
    @HandleRequest(
      mode === 'stream' || mode === 'invalid item' ? countdown : catalogContracts.generationCatalog,
    )
    async answer(payload: { from?: number }) {
      calls.set(instance, (calls.get(instance) ?? 0) + 1);
      if (mode === 'failing') throw new RpcException('the catalog is being rebuilt');
      if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 600));
      if (mode === 'invalid reply') return { ...catalog, models: 'gpt-4' };
      if (mode !== 'stream' && mode !== 'invalid item') return catalog;
      const values = Array.from({ length: payload.from ?? 0 }, (_, index) => ({
        value: mode === 'invalid item' && index === 2 ? 'three' : (payload.from ?? 0) - index,
      }));
      return from(values);
    }
  }
  @Module({
    imports: [ServiceCoreModule.forService('generation', { logLevel: 'silent' })],
    controllers: [TestController],
  })
  class TestModule {}
  return TestModule;
}

type TransportFactory = () => Promise<{ transport: TransportConfig; stop(): Promise<void> }>;

const transports: Array<[string, TransportFactory]> = [
  ['in-process', async () => ({ transport: inProcessTransport(), stop: async () => undefined })],
  [
    'NATS',
    async () => {
      const nats: RunningNats = await startNatsServer();
      return { transport: natsTransport(nats.url), stop: () => nats.stop() };
    },
  ],
];

describe.each(transports)('the %s transport', (_name, createTransport) => {
  let transport: TransportConfig;
  let stopTransport: () => Promise<void>;
  let proxy: TransportClient;
  let sut: ServiceClient;
  const apps: INestMicroservice[] = [];
  const calls = new Map<string, number>();

  async function startInstance(instance: string, mode: Mode) {
    const app = await startService({
      service: 'generation',
      module: createTestModule(instance, calls, mode),
      transport,
    });
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    ({ transport, stop: stopTransport } = await createTransport());
    proxy = createClientProxy(transport, { anonymous: 'test-client' });
    await proxy.connect();
    sut = new ServiceClient(proxy, 2_000);
  });

  /** A client whose requests get `extra` added after its own validation, as if sent raw. */
  function uncheckedClient(extra: Record<string, unknown>) {
    return new ServiceClient(
      { send: (pattern, data) => proxy.send(pattern, { ...(data as object), ...extra }) },
      2_000,
    );
  }

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    calls.clear();
  });

  afterAll(async () => {
    await proxy.close();
    await stopTransport();
  });

  it('answers a request with the validated reply', async () => {
    await startInstance('a', 'request');
    await expect(sut.request(catalogContracts.generationCatalog, {})).resolves.toEqual(catalog);
  });

  it('hands out copies, never the object the handler returned', async () => {
    await startInstance('a', 'request');
    const first = await sut.request(catalogContracts.generationCatalog, {});
    first.topics.push('mutated by the caller');
    const second = await sut.request(catalogContracts.generationCatalog, {});
    expect(second.topics).toEqual(catalog.topics);
  });

  it("hands the caller a handler's error as a ServiceError with its message", async () => {
    await startInstance('a', 'failing');
    const error = await sut
      .request(catalogContracts.generationCatalog, {})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).message).toBe('the catalog is being rebuilt');
  });

  it('reports a handler slower than the timeout as unavailable, then answers the next call', async () => {
    await startInstance('a', 'slow');
    const impatient = new ServiceClient(proxy, 200);
    const started = Date.now();
    const error = await impatient
      .request(catalogContracts.generationCatalog, {})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as Error).message).toMatch(/no answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(500);
    // The late reply to the first call must not be taken for the second's.
    await expect(sut.request(catalogContracts.generationCatalog, {})).resolves.toEqual(catalog);
    expect(calls.get('a')).toBe(2);
  });

  it('delivers every value of a streamed reply, in order', async () => {
    await startInstance('a', 'stream');
    const items = await firstValueFrom(sut.stream(countdown, { from: 5 }).pipe(toArray()));
    expect(items.map((item) => item.value)).toEqual([5, 4, 3, 2, 1]);
  });

  it('refuses an invalid request before sending it', async () => {
    await startInstance('a', 'request');
    await expect(
      sut.request(catalogContracts.generationCatalog, { unexpected: 1 } as never),
    ).rejects.toBeInstanceOf(ContractViolation);
    expect(calls.get('a') ?? 0).toBe(0);
  });

  it('has the receiving service refuse an invalid payload that was sent anyway', async () => {
    await startInstance('a', 'stream');
    const unchecked = uncheckedClient({ from: 'five' });
    const error = await firstValueFrom(unchecked.stream(countdown, { from: 5 })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as Error).message).toContain(subjects.generation.catalog.get);
    expect(calls.get('a') ?? 0).toBe(0);
  });

  it('has the receiving service refuse an invalid request that was sent anyway', async () => {
    await startInstance('a', 'request');
    const unchecked = uncheckedClient({ unexpected: 1 });
    const error = await unchecked
      .request(catalogContracts.generationCatalog, {})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as Error).message).toContain(subjects.generation.catalog.get);
    expect((error as Error).message).toContain('unexpected');
    expect(calls.get('a') ?? 0).toBe(0);
  });

  it('counts every request by outcome and times the handled ones, per service and subject', async () => {
    const labels = { service: 'generation', subject: subjects.generation.catalog.get };
    const counted = async (outcome: string) =>
      (await natsRequestMetrics().requests.get()).values.find(
        (value) =>
          value.labels['service'] === labels.service &&
          value.labels['subject'] === labels.subject &&
          value.labels['outcome'] === outcome,
      )?.value ?? 0;
    const timed = async () =>
      (await natsRequestMetrics().duration.get()).values.find(
        (value) =>
          value.metricName === 'nats_request_duration_seconds_count' &&
          value.labels['service'] === labels.service &&
          value.labels['subject'] === labels.subject,
      )?.value ?? 0;
    const before = {
      ok: await counted('ok'),
      invalid: await counted('invalid'),
      timed: await timed(),
    };
    await startInstance('a', 'request');
    await sut.request(catalogContracts.generationCatalog, {});
    await sut.request(catalogContracts.generationCatalog, {});
    const unchecked = uncheckedClient({ unexpected: 1 });
    await unchecked.request(catalogContracts.generationCatalog, {}).catch(() => undefined);
    expect((await counted('ok')) - before.ok).toBe(2);
    expect((await counted('invalid')) - before.invalid).toBe(1);
    // the refused one was never handled: counted, not timed
    expect((await timed()) - before.timed).toBe(2);
  });

  it('has the caller refuse a reply that breaks the contract, naming the subject and the field', async () => {
    await startInstance('a', 'invalid reply');
    const error = await sut
      .request(catalogContracts.generationCatalog, {})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContractViolation);
    expect((error as ContractViolation).message).toBe(
      `Invalid response on ${subjects.generation.catalog.get}: models: Invalid input: expected array, received string`,
    );
  });

  it('has the caller refuse a streamed item that breaks the contract, after the valid ones', async () => {
    await startInstance('a', 'invalid item');
    const received: number[] = [];
    const error = await new Promise((resolve) => {
      sut.stream(countdown, { from: 5 }).subscribe({
        next: (item) => received.push(item.value),
        error: resolve,
        complete: () => resolve(undefined),
      });
    });
    expect(received).toEqual([5, 4]);
    expect(error).toBeInstanceOf(ContractViolation);
    expect((error as ContractViolation).direction).toBe('item');
  });

  it('gives each request to one member of the service queue group', async () => {
    await startInstance('a', 'request');
    await startInstance('b', 'request');
    await Promise.all(
      Array.from({ length: 10 }, () => sut.request(catalogContracts.generationCatalog, {})),
    );
    expect((calls.get('a') ?? 0) + (calls.get('b') ?? 0)).toBe(10);
  });

  it('reports a service nobody runs as unavailable, well within the timeout', async () => {
    const started = Date.now();
    const error = await sut
      .request(usageContracts.stats, { userId: 'ada', email: 'ada@example.org' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).service).toBe('usage');
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('refuses calls after close instead of opening a new connection', async () => {
    await startInstance('a', 'request');
    const ownProxy = createClientProxy(transport, { anonymous: 'closing-client' });
    await ownProxy.connect();
    const client = new ServiceClient(ownProxy, 2_000);
    await expect(client.request(catalogContracts.generationCatalog, {})).resolves.toEqual(catalog);
    await client.close();
    const error = await client
      .request(catalogContracts.generationCatalog, {})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as Error).message).toMatch(/client is closed/);
  });
});
