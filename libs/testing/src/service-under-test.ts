import type { EventContract, ServiceName } from '@debate/contracts';
import { start as startStore } from '@debate/embedded-mongo';
import type { DynamicModule, INestMicroservice, Type } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import {
  createClientProxy,
  createEventLog,
  createLogger,
  type EventLog,
  inProcessTransport,
  type LogLevel,
  PinoLoggerService,
  ServiceClient,
  type ServiceRuntimeOptions,
  startService,
} from '@debate/nest';

export interface ServiceUnderTestOptions {
  readonly service: ServiceName;
  /**
   * The service's root module on the runtime the harness made, e.g.
   * `(runtime) => UsageServiceModule.register({ ...runtime, startsPerMinute: 3 })`.
   */
  readonly register: (runtime: ServiceRuntimeOptions) => DynamicModule;
  /**
   * Stand-ins for the services it calls: modules whose controllers answer those services'
   * contracts, started first on the same bus.
   */
  readonly standIns?: Partial<Record<ServiceName, Type<unknown> | DynamicModule>>;
  /** What the service and NestJS log (default: nothing). */
  readonly logLevel?: LogLevel;
  /** How long the test's client waits for a reply (default 5 s). */
  readonly timeoutMs?: number;
}

export interface ServiceUnderTest {
  /** Sends requests on the service's bus, validated by their contracts as the gateway's are. */
  readonly client: ServiceClient;
  /** The bus's event log: publish what other services announce to the service. */
  readonly events: EventLog;
  /**
   * Every event of `contract` published from now on, in order, as a subscriber of its own
   * receives it (beside the service's own consumer, if it has one).
   */
  record<C extends EventContract>(contract: C): Promise<ReadonlyArray<z.output<C['payload']>>>;
  stop(): Promise<void>;
}

/**
 * One service as it runs in single-process mode, alone: its root module on the in-process
 * transport, its database in a fresh embedded store, and a client on the same bus. Its
 * integration tests reach it through its contracts only, as the other services and the gateway
 * do.
 */
export async function startServiceUnderTest(
  options: ServiceUnderTestOptions,
): Promise<ServiceUnderTest> {
  const transport = inProcessTransport();
  // NestJS's own logger is process-wide: one for the service and its stand-ins.
  const frameworkLogger = new PinoLoggerService(createLogger('test', options.logLevel ?? 'silent'));
  const dataDir = mkdtempSync(join(tmpdir(), `${options.service}-under-test-`));
  const apps: INestMicroservice[] = [];
  const events = createEventLog(transport, { anonymous: `${options.service}-test` });
  const client = new ServiceClient(
    createClientProxy(transport, { anonymous: `${options.service}-test` }),
    options.timeoutMs,
  );
  let store: Awaited<ReturnType<typeof startStore>> | undefined;

  const stop = async () => {
    await client.close();
    // The service first: it may still call its stand-ins while it stops.
    for (const app of apps.splice(0).reverse()) await app.close();
    await events.close();
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    store = await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
    for (const [service, module] of Object.entries(options.standIns ?? {})) {
      apps.push(
        await startService({ service: service as ServiceName, module, transport, frameworkLogger }),
      );
    }
    const runtime: ServiceRuntimeOptions = {
      logLevel: options.logLevel ?? 'silent',
      transport,
      mongoUrl: store.uri,
    };
    apps.push(
      await startService({
        service: options.service,
        module: options.register(runtime),
        transport,
        frameworkLogger,
      }),
    );
  } catch (error) {
    await stop();
    throw error;
  }

  let recorders = 0;
  return {
    client,
    events,
    record: async <C extends EventContract>(contract: C) => {
      const received: Array<z.output<C['payload']>> = [];
      recorders += 1;
      // A durable name of its own: its own queue group, so it takes every event.
      await events.subscribe(contract, `recorder-${recorders}`, async (payload) => {
        received.push(payload);
      });
      return received;
    },
    stop,
  };
}

/**
 * Runs `assertion` until it passes (an expectation on something that settles, e.g. a server's
 * /health), and throws its last failure after `timeoutMs`: the failure says what was seen.
 */
export async function untilPasses(
  assertion: () => unknown,
  timeoutMs = 5_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/**
 * Asks `probe` until `done` holds for its answer (an event consumed, a rule applied), and
 * resolves with that answer; rejects with the last one after `timeoutMs`.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`Still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
