import {
  ContractViolation,
  type ItemOf,
  parsePayload,
  type RequestContract,
  type RequestOf,
  type ResponseOf,
  type ServiceName,
  type StreamContract,
  type Subject,
} from '@debate/contracts';
import type { OnApplicationShutdown } from '@nestjs/common';
import type { ClientNats } from '@nestjs/microservices';
import {
  headers as natsHeaders,
  type MsgHdrs,
  type NatsConnection,
  type Subscription as NatsSubscription,
  TimeoutError,
} from '@nats-io/transport-node';
import { traceHeaders } from '../tracing/tracing.js';
import { requestMuxOf, streamInbox } from '../transport/nats-request-mux.js';
import { isNestNatsClient, ReplyPacket, requestPacket } from '../transport/nest-internals.js';
import { instanceSubject } from '../rpc/instance.js';
import { catchError, firstValueFrom, map, Observable, throwError, timeout } from 'rxjs';

/** The service did not answer: it is down, unreachable, or too slow. */
export class ServiceUnavailableError extends Error {
  constructor(
    readonly service: ServiceName,
    readonly subject: Subject,
    readonly reason: string,
  ) {
    super(`The ${service} service is unavailable (${subject}): ${reason}`);
    this.name = 'ServiceUnavailableError';
  }
}

/** The service answered with an error of its own. */
export class ServiceError extends Error {
  constructor(
    readonly service: ServiceName,
    readonly subject: Subject,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

/** The part of a NestJS ClientProxy this client uses. */
export interface MessageSender {
  send<TResult = unknown, TInput = unknown>(pattern: string, data: TInput): Observable<TResult>;
  close?(): unknown;
}

export interface CallOptions {
  /** How long to wait for the reply (for a stream: for its first item). */
  readonly timeoutMs?: number;
  /**
   * The key of the instance that must answer (a handler with `onThisInstance`); without it,
   * any instance of the service does.
   */
  readonly instance?: string | undefined;
}

function subjectOf(contract: RequestContract | StreamContract, options: CallOptions): string {
  return options.instance ? instanceSubject(contract.subject, options.instance) : contract.subject;
}

function messageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'message' in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return 'unknown error';
}

const UNREACHABLE =
  /no responders|empty response|connection (closed|lost)|closed connection|draining|not initialized|503/i;

/** What a failed call's error means to the caller: the service unreachable, or its own error. */
function callError(
  contract: RequestContract | StreamContract,
  error: unknown,
): ServiceUnavailableError | ServiceError {
  const message = messageOf(error);
  return UNREACHABLE.test(message)
    ? new ServiceUnavailableError(contract.owner, contract.subject, message)
    : new ServiceError(contract.owner, contract.subject, message);
}

/**
 * The typed way to call another service: the request is validated before it leaves, the
 * reply when it arrives, and a service that does not answer becomes a clear error in at most
 * `timeoutMs`, never a hang.
 */
export class ServiceClient implements OnApplicationShutdown {
  private closed = false;

  constructor(
    private readonly proxy: MessageSender,
    private readonly defaultTimeoutMs = 5_000,
  ) {}

  /**
   * Closes the underlying connection. Later calls fail at once instead of letting the proxy
   * open a new connection (a NestJS ClientProxy connects lazily on send).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.proxy.close?.();
  }

  /** Whether the transport answers: on NATS, a ping round trip on this client's connection. */
  async ping(): Promise<true | string> {
    if (this.closed) return 'the client is closed';
    if (isNestNatsClient(this.proxy)) await (await connectionOf(this.proxy)).flush();
    return true;
  }

  /** Called by NestJS when the application that owns this client closes. */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }

  async request<C extends RequestContract>(
    contract: C,
    payload: RequestOf<C>,
    options: CallOptions = {},
  ): Promise<ResponseOf<C>> {
    this.assertOpen(contract);
    const data = parsePayload(contract.subject, 'request', contract.request, payload);
    const reply = isNestNatsClient(this.proxy)
      ? await this.natsRequest(this.proxy, contract, data, options)
      : await firstValueFrom(
          this.guard(
            contract,
            this.proxy.send<unknown>(subjectOf(contract, options), data),
            options,
          ),
        );
    return parsePayload(contract.subject, 'response', contract.response, reply) as ResponseOf<C>;
  }

  /**
   * One request and its one reply on NATS, every reply arriving on the connection's one reply
   * subscription (NatsRequestMux). NestJS's ClientNats subscribes to a new inbox for each
   * request and unsubscribes after it: two more protocol lines each time and a change of
   * interest the broker has to process. What travels is NestJS's request and reply packets
   * (nest-internals.ts), which its NATS server strategy reads and answers.
   */
  private async natsRequest(
    client: ClientNats,
    contract: RequestContract,
    data: unknown,
    options: CallOptions,
  ): Promise<unknown> {
    const limit = options.timeoutMs ?? this.defaultTimeoutMs;
    const unavailable = (reason: string) =>
      new ServiceUnavailableError(contract.owner, contract.subject, reason);
    let message;
    try {
      const connection = await connectionOf(client);
      const subject = subjectOf(contract, options);
      message = await requestMuxOf(connection).request(
        subject,
        JSON.stringify(requestPacket(subject, data)),
        { timeoutMs: limit, headers: this.traceparent() },
      );
    } catch (error) {
      if (error instanceof TimeoutError) throw unavailable(`no answer within ${limit} ms`);
      throw callError(contract, error);
    }
    if (message.data.length === 0) throw unavailable('empty response');
    let json: unknown;
    try {
      json = message.json();
    } catch {
      throw new ServiceError(contract.owner, contract.subject, 'the reply is not JSON');
    }
    const reply = ReplyPacket.safeParse(json);
    if (!reply.success) {
      throw new ServiceError(contract.owner, contract.subject, 'the reply is not a reply packet');
    }
    if (reply.data.err !== undefined && reply.data.err !== null) {
      throw new ServiceError(contract.owner, contract.subject, messageOf(reply.data.err));
    }
    return reply.data.response;
  }

  stream<C extends StreamContract>(
    contract: C,
    payload: RequestOf<C>,
    options: CallOptions = {},
  ): Observable<ItemOf<C>> {
    this.assertOpen(contract);
    const data = parsePayload(contract.subject, 'request', contract.request, payload);
    const items$ = isNestNatsClient(this.proxy)
      ? this.natsStream(this.proxy, contract, data, options)
      : this.proxy.send<unknown>(subjectOf(contract, options), data);
    return this.guard(contract, items$, options).pipe(
      map((item) => parsePayload(contract.subject, 'item', contract.item, item) as ItemOf<C>),
    );
  }

  /**
   * One request and its streamed reply on NATS: the items arrive on an inbox of their own under
   * the connection's stream inbox prefix (streamInbox), which the streaming service may publish
   * to by name, so that a stream goes on when that service's connection moves to another server
   * of the cluster (a reply granted by allow_responses would end there). What travels is
   * NestJS's request and reply packets, as ClientNats sends and reads them
   * (client/client-nats.js: publish, createSubscriptionHandler; client/client-proxy.js:
   * createObserver): an item is a packet's `response`, `isDisposed` ends the stream, `err`
   * fails it, and an empty message is the server's 'no responders'.
   */
  private natsStream(
    client: ClientNats,
    contract: StreamContract,
    data: unknown,
    options: CallOptions,
  ): Observable<unknown> {
    return new Observable<unknown>((subscriber) => {
      let subscription: NatsSubscription | undefined;
      let left = false;
      const fail = (error: unknown) => subscriber.error(callError(contract, error));
      connectionOf(client).then((connection) => {
        if (left) return;
        const subject = subjectOf(contract, options);
        const packet = requestPacket(subject, data);
        const inbox = streamInbox(connection);
        subscription = connection.subscribe(inbox, {
          callback: (error, message) => {
            if (error) return fail(error);
            if (message.data.length === 0) return fail('empty response: no responders');
            let reply;
            try {
              reply = ReplyPacket.safeParse(message.json());
            } catch {
              return fail('the reply is not JSON');
            }
            if (!reply.success) return fail('the reply is not a reply packet');
            const { id, err, response, isDisposed } = reply.data;
            if (id !== undefined && id !== packet.id) return undefined;
            if (err !== undefined && err !== null) {
              return subscriber.error(
                new ServiceError(contract.owner, contract.subject, messageOf(err)),
              );
            }
            if (response !== undefined) subscriber.next(response);
            if (isDisposed) subscriber.complete();
            return undefined;
          },
        });
        const headers = this.traceparent();
        connection.publish(subject, JSON.stringify(packet), {
          reply: inbox,
          ...(headers ? { headers } : {}),
        });
      }, fail);
      return () => {
        left = true;
        subscription?.unsubscribe();
      };
    });
  }

  /** The current trace as NATS headers (W3C traceparent/tracestate), if there is one. */
  private traceparent(): MsgHdrs | undefined {
    const carrier = traceHeaders();
    if (!carrier['traceparent']) return undefined;
    const headers = natsHeaders();
    for (const [key, value] of Object.entries(carrier)) headers.set(key, value);
    return headers;
  }

  private assertOpen(contract: RequestContract | StreamContract): void {
    if (this.closed) {
      throw new ServiceUnavailableError(contract.owner, contract.subject, 'the client is closed');
    }
  }

  private guard(
    contract: RequestContract | StreamContract,
    reply$: Observable<unknown>,
    options: CallOptions,
  ): Observable<unknown> {
    const limit = options.timeoutMs ?? this.defaultTimeoutMs;
    return reply$.pipe(
      timeout({
        first: limit,
        with: () =>
          throwError(
            () =>
              new ServiceUnavailableError(
                contract.owner,
                contract.subject,
                `no answer within ${limit} ms`,
              ),
          ),
      }),
      catchError((error: unknown) => {
        if (error instanceof ServiceUnavailableError || error instanceof ContractViolation) {
          return throwError(() => error);
        }
        return throwError(() => callError(contract, error));
      }),
    );
  }
}

/** The nats.js connection of NestJS's NATS client, connecting it first if need be. */
async function connectionOf(client: ClientNats): Promise<NatsConnection> {
  await client.connect();
  return client.unwrap<NatsConnection>();
}
