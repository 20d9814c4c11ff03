import {
  type EventContract,
  type EventPayloadOf,
  type EventStream,
  eventStreams,
  parsePayload,
  streamOf,
} from '@debate/contracts';
import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  jetstream,
  type JetStreamClient,
  jetstreamManager,
} from '@nats-io/jetstream';
import type { z } from 'zod';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import type { InProcessBus } from '../transport/in-process-bus.js';
import {
  type NatsClientIdentity,
  natsClientName,
  natsConnectionOptions,
  type NatsSettings,
} from '../transport/nats.transport.js';
import type { TransportConfig } from '../transport/transport.factory.js';

/** How long an event whose handler failed waits before it is delivered again. */
const RETRY_MS = 1_000;

/** How often a waiting consumer looks for the stream. */
const STREAM_POLL_MS = 1_000;

/**
 * How long a service keeps trying to create its streams and consumers while JetStream cannot
 * answer yet (a cluster forming or electing its leader, all the services starting at once on
 * a small machine: the API's 5 s timeout passed), before its start fails.
 */
const JETSTREAM_PATIENCE_MS = 60_000;

/**
 * How long each pull for events waits on the server (nats.js's default is 30 s). It also sets
 * how fast a consumer notices that the server leading it was lost: nats.js expects a heartbeat
 * every half of it and pulls again after two are missed, and after a reconnection it retries
 * its consumer's info once per this period while JetStream elects new leaders. On the cluster
 * test (one server of three killed) a shared debate once waited more than 10 s at 30 s.
 */
const PULL_EXPIRES_MS = 5_000;

export interface SubscribeOptions {
  /**
   * Where a dropped (invalid) event, a failed handler, or a wait for the stream's owner to create
   * the stream is reported.
   */
  readonly onProblem?: (message: string) => void;
}

/** The stream an event travels in; an event outside every stream is a programming error. */
function requireStream(contract: EventContract): EventStream {
  const stream = streamOf(contract.subject);
  if (!stream) throw new Error(`${contract.subject} belongs to no event stream`);
  return stream;
}

/** Parses an event for its handler; undefined (reported) when it breaks the contract. */
function decode<C extends EventContract>(
  contract: C,
  data: string,
  onProblem: (message: string) => void,
): z.output<C['payload']> | undefined {
  try {
    return parsePayload(contract.subject, 'event', contract.payload, JSON.parse(data)) as z.output<
      C['payload']
    >;
  } catch (error) {
    onProblem(`Dropped an invalid event on ${contract.subject}: ${String(error)}`);
    return undefined;
  }
}

export interface PublishResult {
  /** The log already held an event with this id (within the stream's duplicate window). */
  readonly duplicate: boolean;
}

/**
 * Where a service records the facts other services must not miss. A publish resolves only once
 * the log holds the event, and publishing the same `eventId` twice records it once, so a
 * publisher may retry freely (after a crash, or when two instances race).
 */
export abstract class EventLog {
  abstract publish<C extends EventContract>(
    contract: C,
    payload: EventPayloadOf<C>,
    eventId: string,
  ): Promise<PublishResult>;

  /**
   * Hands every event of `contract` to `handler`, once per `durable` name however many
   * instances subscribe, from the start of the stream and across restarts (a JetStream durable
   * consumer). An event counts as handled only when `handler` resolves; a failure is retried
   * after a second (RETRY_MS), so handlers must be idempotent. Invalid payloads are logged and
   * dropped.
   */
  abstract subscribe<C extends EventContract>(
    contract: C,
    durable: string,
    handler: (payload: z.output<C['payload']>) => Promise<void>,
    options?: SubscribeOptions,
  ): Promise<void>;

  abstract close(): Promise<void>;

  protected encode<C extends EventContract>(
    contract: C,
    payload: EventPayloadOf<C>,
  ): { stream: EventStream; data: string } {
    const stream = requireStream(contract);
    const data = JSON.stringify(parsePayload(contract.subject, 'event', contract.payload, payload));
    return { stream, data };
  }
}

/**
 * The event log of the distributed platform: JetStream, with the event id as Nats-Msg-Id (the
 * server drops a duplicate within the stream's window). A stream's owner creates it, or brings
 * it up to date, when its application starts (onApplicationBootstrap) and before it publishes;
 * its consumers may only read it (natsPermissions): one that starts first consumes it once it is
 * there, without holding its service's start.
 */
export class JetStreamEventLog extends EventLog {
  private connection: Promise<{ nc: NatsConnection; js: JetStreamClient }> | undefined;
  private readonly ensured = new Map<string, Promise<void>>();
  private readonly consumers: ConsumerMessages[] = [];
  /** Consumers waiting for another deployable's stream (settled by close). */
  private readonly waiting: Promise<void>[] = [];
  private closed = false;

  /**
   * `client`: the deployable (or an anonymous client, a test's, which owns no stream);
   * `replicas`: how many servers hold each stream (unset: see ensureStream).
   */
  constructor(
    private readonly nats: NatsSettings,
    private readonly client: NatsClientIdentity,
    private readonly replicas?: number,
  ) {
    super();
  }

  private connect(): Promise<{ nc: NatsConnection; js: JetStreamClient }> {
    this.connection ??= connect(
      natsConnectionOptions(this.nats, this.client, `${natsClientName(this.client)}-events`),
    ).then((nc) => ({ nc, js: jetstream(nc) }));
    return this.connection;
  }

  private owns(stream: EventStream): boolean {
    return stream.owner === this.client;
  }

  /**
   * Called by NestJS when the service's application starts: creates the streams this deployable
   * owns (or brings them up to date), so that their consumers find them before its first event.
   */
  async onApplicationBootstrap(): Promise<void> {
    const owned = Object.values(eventStreams as Record<string, EventStream>).filter((stream) =>
      this.owns(stream),
    );
    if (owned.length === 0) return;
    const { nc } = await this.connect();
    for (const stream of owned) await this.ensureStream(nc, stream);
  }

  /**
   * Resolves once `stream` exists (a consumer may not create it): it looks once every
   * STREAM_POLL_MS until its owner has, for as long as it takes (the owner may start long after
   * this service), says so through `onProblem`, and resolves at once when this log is closed.
   */
  private async awaitStream(
    nc: NatsConnection,
    stream: EventStream,
    onProblem: (message: string) => void,
  ): Promise<void> {
    while (!this.closed) {
      await new Promise((resolve) => setTimeout(resolve, STREAM_POLL_MS));
      if (!this.closed && (await this.streamExists(nc, stream))) {
        onProblem(`${stream.name} is there: consuming it`);
        return;
      }
    }
  }

  private ensureStream(nc: NatsConnection, stream: EventStream): Promise<void> {
    let ensured = this.ensured.get(stream.name);
    if (!ensured) {
      ensured = ensureStream(nc, stream, this.replicas);
      this.ensured.set(stream.name, ensured);
      ensured.catch(() => this.ensured.delete(stream.name));
    }
    return ensured;
  }

  async publish<C extends EventContract>(
    contract: C,
    payload: EventPayloadOf<C>,
    eventId: string,
  ): Promise<PublishResult> {
    const { stream, data } = this.encode(contract, payload);
    const { nc, js } = await this.connect();
    await this.ensureStream(nc, stream);
    const ack = await js.publish(contract.subject, data, { msgID: eventId });
    return { duplicate: ack.duplicate };
  }

  async subscribe<C extends EventContract>(
    contract: C,
    durable: string,
    handler: (payload: z.output<C['payload']>) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<void> {
    const stream = requireStream(contract);
    const onProblem = options.onProblem ?? (() => undefined);
    const { nc } = await this.connect();
    if (this.owns(stream)) {
      await this.ensureStream(nc, stream);
      await this.consume(contract, stream, durable, handler, onProblem);
      return;
    }
    // Another deployable's stream: this service serves its own requests meanwhile, and its
    // durable consumer, once the stream is there, delivers every event from the first.
    if (await this.streamExists(nc, stream)) {
      await this.consume(contract, stream, durable, handler, onProblem);
      return;
    }
    onProblem(
      `${stream.name} does not exist yet: the ${stream.owner} service creates it when it starts; consuming it once it is there`,
    );
    this.waiting.push(
      this.awaitStream(nc, stream, onProblem)
        .then(() =>
          this.closed ? undefined : this.consume(contract, stream, durable, handler, onProblem),
        )
        .catch((error: unknown) => onProblem(`Consuming ${stream.name} failed: ${String(error)}`)),
    );
  }

  /** Whether `stream` exists (a consumer's one look before it waits in the background). */
  private async streamExists(nc: NatsConnection, stream: EventStream): Promise<boolean> {
    return patiently(async () => {
      try {
        await (await jetstreamManager(nc)).streams.info(stream.name);
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    });
  }

  /** Adds the durable consumer `durable` of `contract`'s events and hands each to `handler`. */
  private async consume<C extends EventContract>(
    contract: C,
    stream: EventStream,
    durable: string,
    handler: (payload: z.output<C['payload']>) => Promise<void>,
    onProblem: (message: string) => void,
  ): Promise<void> {
    const { nc, js } = await this.connect();
    const name = `${durable}-${contract.subject.replaceAll('.', '_')}`;
    const jsm = await patiently(() => jetstreamManager(nc));
    await patiently(() =>
      jsm.consumers.add(stream.name, {
        durable_name: name,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: contract.subject,
        ack_wait: nanos(30_000),
      }),
    );
    const consumer = await patiently(() => js.consumers.get(stream.name, name));
    const messages = await consumer.consume({ max_messages: 64, expires: PULL_EXPIRES_MS });
    this.consumers.push(messages);
    void (async () => {
      for await (const message of messages) {
        const payload = decode(contract, message.string(), onProblem);
        if (payload === undefined) {
          message.term();
          continue;
        }
        try {
          await handler(payload);
          message.ack();
        } catch (error) {
          onProblem(`Handling ${contract.subject} failed, retrying: ${String(error)}`);
          message.nak(RETRY_MS);
        }
      }
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.waiting.splice(0));
    for (const messages of this.consumers.splice(0)) await messages.close();
    const connection = this.connection;
    this.connection = undefined;
    if (!connection) return;
    const { nc } = await connection;
    if (!nc.isClosed()) await nc.drain();
  }
}

/**
 * Creates `stream` on the server, or updates its subjects and window if it exists, held by
 * `replicas` servers. Without `replicas` a new stream gets the server's default (one) and an
 * existing one keeps its count: a process not told the cluster's size never scales a stream
 * down that another one scaled up.
 */
export async function ensureStream(
  nc: NatsConnection,
  stream: EventStream,
  replicas?: number,
): Promise<void> {
  const jsm = await patiently(() => jetstreamManager(nc));
  const config = {
    subjects: [...stream.subjects],
    duplicate_window: nanos(stream.duplicateWindowMs),
    ...(replicas === undefined ? {} : { num_replicas: replicas }),
  };
  await patiently(async () => {
    try {
      await jsm.streams.info(stream.name);
      await jsm.streams.update(stream.name, config);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await jsm.streams.add({ name: stream.name, ...config });
    }
  });
}

/** `task`, tried again once a second while JetStream's refusal may pass (isTransient). */
async function patiently<T>(task: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + JETSTREAM_PATIENCE_MS;
  for (;;) {
    try {
      return await task();
    } catch (error) {
      if (!isTransient(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, STREAM_POLL_MS));
    }
  }
}

/**
 * Whether JetStream's refusal may pass by itself: on a cluster that is forming or electing a
 * leader, its API times out or says it is unavailable, and a stream at 3 replicas finds no peers
 * until the three servers know one another.
 */
function isTransient(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'TimeoutError' ||
      /timeout|temporarily unavailable|no suitable peers|insufficient resources/i.test(
        error.message,
      ))
  );
}

/** Whether JetStream answered that the stream does not exist. */
function isNotFound(error: unknown): boolean {
  return error instanceof Error && /not found/i.test(error.message);
}

/**
 * The event log of single-process mode: the in-process bus, with the same duplicate window as
 * the stream (kept in memory: in this mode publisher and subscribers live and die together).
 */
export class InProcessEventLog extends EventLog {
  private readonly unsubscribers: Array<() => void> = [];

  constructor(private readonly bus: InProcessBus) {
    super();
  }

  async publish<C extends EventContract>(
    contract: C,
    payload: EventPayloadOf<C>,
    eventId: string,
  ): Promise<PublishResult> {
    const { stream, data } = this.encode(contract, payload);
    const fresh = this.bus.remember(`${stream.name}\u0000${eventId}`, stream.duplicateWindowMs);
    if (fresh) this.bus.publish(contract.subject, data);
    return { duplicate: !fresh };
  }

  async subscribe<C extends EventContract>(
    contract: C,
    durable: string,
    handler: (payload: z.output<C['payload']>) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<void> {
    const onProblem = options.onProblem ?? (() => undefined);
    const deliver = (data: string) => {
      const payload = decode(contract, data, onProblem);
      if (payload === undefined) return;
      handler(payload).catch((error: unknown) => {
        onProblem(`Handling ${contract.subject} failed, retrying: ${String(error)}`);
        const timer = setTimeout(() => deliver(data), RETRY_MS);
        timer.unref();
      });
    };
    // The durable name is the queue group: one subscriber of each service handles each event.
    this.unsubscribers.push(this.bus.subscribe(contract.subject, `events:${durable}`, deliver));
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
  }
}

export function createEventLog(transport: TransportConfig, client: NatsClientIdentity): EventLog {
  return transport.kind === 'nats'
    ? new JetStreamEventLog(transport, client, transport.jetstreamReplicas)
    : new InProcessEventLog(transport.bus);
}
