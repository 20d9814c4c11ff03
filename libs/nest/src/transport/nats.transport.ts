import type { RequestContract } from '@debate/contracts';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { ClientNats, type MessageHandler, type ServerNats } from '@nestjs/microservices';
import { finalize, type Observable } from 'rxjs';
import { WorkInProgress } from '../bootstrap/work-in-progress.js';
import { answerRequest, requestContractOf } from '../rpc/answer-request.js';
import { NestNatsServer } from './nest-internals.js';

/** Connection settings shared by every NATS client and server of the platform. */
export function natsConnectionOptions(url: string, name: string) {
  return {
    servers: [url],
    name,
    // Keep trying for ever: a broker restart must not take a service down with it.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1_000,
    // A process started before the broker waits for it rather than failing.
    waitOnFirstConnect: true,
    // No stack trace captured for every request in case it fails: it costs on every request,
    // and a failed request becomes a ServiceUnavailableError that says which subject failed.
    noAsyncTraces: true,
  };
}

/** By default, how long a stopping service waits for the requests it took to be answered. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * The NATS server strategy, ready only once the broker has its subscriptions (a request sent
 * right after start-up finds its handler), and closing by draining: its subscriptions stop
 * taking new messages (the broker routes them to the other instances), every request already
 * taken is answered, including the ones whose handler is still working, then the
 * connection closes. (nats.js's own drain counts a message done when its callback returns,
 * before an async handler has replied: those replies were lost.)
 */
export class DrainingNatsServer extends NestNatsServer {
  /** The requests taken and not yet answered (a streamed reply counts until it ends). */
  private readonly inFlight = new WorkInProgress<object>();

  constructor(
    options: ConstructorParameters<typeof ServerNats>[0],
    private readonly drainTimeoutMs = DRAIN_TIMEOUT_MS,
  ) {
    super(options);
  }

  protected async receive(
    channel: string,
    message: Msg,
    nest: () => Promise<unknown>,
  ): Promise<unknown> {
    const request = {};
    this.inFlight.add(request);
    try {
      const handler = this.messageHandlers.get(channel);
      const contract = requestContractOf(handler);
      if (handler && contract && message.reply) {
        return await this.answer(channel, contract, handler, message, nest);
      }
      return await nest();
    } finally {
      this.inFlight.delete(request);
    }
  }

  /**
   * A request contract's request, answered here (answerRequest) with the one reply packet
   * NestJS's own path sends for a single reply. That path builds an Observable pipeline per
   * request, to support streams; a request has one reply.
   */
  private async answer(
    channel: string,
    contract: RequestContract,
    handler: MessageHandler,
    message: Msg,
    nest: () => Promise<unknown>,
  ): Promise<unknown> {
    const { id, data } = await this.readPacket(channel, message);
    if (id === undefined) return nest();
    const context = this.contextOf(message);
    await this.runWithProcessingHooks(context, async (runEndHook) => {
      const reply = await answerRequest(contract, data, message.headers, handler, context);
      runEndHook();
      this.respond(message, id, { ...reply, isDisposed: true });
    });
    return undefined;
  }

  protected replies(replies$: Observable<unknown>): Observable<unknown> {
    // receive still counts its request when NestJS starts sending: the count never drops to 0
    // in between.
    const reply = {};
    this.inFlight.add(reply);
    return replies$.pipe(finalize(() => this.inFlight.delete(reply)));
  }

  override async listen(callback: (...optionalParams: unknown[]) => void): Promise<void> {
    await super.listen((error?: unknown) => {
      if (error) {
        callback(error);
        return;
      }
      this.unwrap<NatsConnection>()
        .flush()
        .then(
          () => callback(),
          (flushError: unknown) => callback(flushError),
        );
    });
  }

  /** True once the broker answers a ping on this server's connection (for readiness). */
  async ping(): Promise<true | string> {
    const connection = this.unwrap<NatsConnection>();
    if (connection.isClosed()) return 'the NATS connection is closed';
    await connection.flush();
    return true;
  }

  override async close(): Promise<void> {
    let connection: NatsConnection | undefined;
    try {
      connection = this.unwrap<NatsConnection>();
    } catch {
      connection = undefined;
    }
    if (connection && !connection.isClosed()) {
      await Promise.all(this.handlerSubscriptions().map((subscription) => subscription.drain()));
      await this.inFlight.whenIdle(this.drainTimeoutMs);
      await connection.drain();
    }
    await super.close();
  }
}

export function createNatsServer(
  url: string,
  queue: string,
  drainTimeoutMs?: number,
): DrainingNatsServer {
  return new DrainingNatsServer({ ...natsConnectionOptions(url, queue), queue }, drainTimeoutMs);
}

export function createNatsClient(url: string, name: string): ClientNats {
  return new ClientNats(natsConnectionOptions(url, name));
}
