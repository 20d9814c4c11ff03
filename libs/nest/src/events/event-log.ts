import {
  type EventContract,
  type EventPayloadOf,
  type EventStream,
  parsePayload,
  streamOf,
} from '@debate/contracts';
import { jetstream, type JetStreamClient, jetstreamManager } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import type { InProcessBus } from '../transport/in-process-bus.js';
import { natsConnectionOptions } from '../transport/nats.transport.js';
import type { TransportConfig } from '../transport/transport.factory.js';

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

  abstract close(): Promise<void>;

  protected encode<C extends EventContract>(
    contract: C,
    payload: EventPayloadOf<C>,
  ): { stream: EventStream; data: string } {
    const stream = streamOf(contract.subject);
    if (!stream) throw new Error(`${contract.subject} belongs to no event stream`);
    const data = JSON.stringify(parsePayload(contract.subject, 'event', contract.payload, payload));
    return { stream, data };
  }
}

/**
 * The event log of the distributed platform: JetStream, with the event id as Nats-Msg-Id (the
 * server drops a duplicate within the stream's window). Streams are created, or brought up to
 * date, on first use.
 */
export class JetStreamEventLog extends EventLog {
  private connection: Promise<{ nc: NatsConnection; js: JetStreamClient }> | undefined;
  private readonly ensured = new Map<string, Promise<void>>();

  constructor(
    private readonly url: string,
    private readonly name: string,
  ) {
    super();
  }

  private connect(): Promise<{ nc: NatsConnection; js: JetStreamClient }> {
    this.connection ??= connect(natsConnectionOptions(this.url, `${this.name}-events`)).then(
      (nc) => ({ nc, js: jetstream(nc) }),
    );
    return this.connection;
  }

  private ensureStream(nc: NatsConnection, stream: EventStream): Promise<void> {
    let ensured = this.ensured.get(stream.name);
    if (!ensured) {
      ensured = ensureStream(nc, stream);
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

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    if (!connection) return;
    const { nc } = await connection;
    if (!nc.isClosed()) await nc.drain();
  }
}

/** Creates `stream` on the server, or updates its subjects and window if it exists. */
export async function ensureStream(nc: NatsConnection, stream: EventStream): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const config = {
    subjects: [...stream.subjects],
    duplicate_window: nanos(stream.duplicateWindowMs),
  };
  try {
    await jsm.streams.info(stream.name);
    await jsm.streams.update(stream.name, config);
  } catch (error) {
    if (!(error instanceof Error) || !/not found/i.test(error.message)) throw error;
    await jsm.streams.add({ name: stream.name, ...config });
  }
}

/**
 * The event log of single-process mode: the in-process bus, with the same duplicate window as
 * the stream (kept in memory: in this mode publisher and subscribers live and die together).
 */
export class InProcessEventLog extends EventLog {
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

  async close(): Promise<void> {}
}

export function createEventLog(transport: TransportConfig, name: string): EventLog {
  return transport.kind === 'nats'
    ? new JetStreamEventLog(transport.url, name)
    : new InProcessEventLog(transport.bus);
}
