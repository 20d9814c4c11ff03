/**
 * Everything the platform's transports rely on in @nestjs/microservices that NestJS does not
 * document as public API, in one file. Read from @nestjs/microservices 12.1.1
 * (NEST_MICROSERVICES_VERSION); each entry says what it assumes and where NestJS defines it
 * (paths inside node_modules/@nestjs/microservices). nest-internals.spec.ts checks every one of
 * them, by behaviour, against the installed package: an upgrade that changes one fails that
 * spec instead of breaking the transport silently. To upgrade: run the spec, reread the sources
 * named here for what it reports, then move NEST_MICROSERVICES_VERSION.
 *
 * The rest of libs/nest uses NestJS's documented API (custom transporters: subclasses of Server
 * and ClientProxy, messageHandlers, publish and dispatchEvent, transformToObservable, unwrap;
 * NatsContext, NatsRecordBuilder, RpcException) and protected members of Server whose
 * declarations the compiler checks (handleRequest, runWithProcessingHooks, logger): a change to
 * those fails the build, not the platform.
 */
import type { ExecutionContext } from '@nestjs/common';
import {
  type BaseRpcContext,
  ClientNats,
  type MessageHandler,
  MessagePattern,
  NatsContext,
  ServerNats,
  type WritePacket,
} from '@nestjs/microservices';
import type { Msg, MsgHdrs, Subscription as NatsSubscription } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { firstValueFrom, isObservable, type Observable, type Subscription } from 'rxjs';
import { z } from 'zod';

/** The @nestjs/microservices release every assumption below was read from. */
export const NEST_MICROSERVICES_VERSION = '12.1.1';

// ---------------------------------------------------------------------------------------------
// The packets

/**
 * A request as NestJS's NATS client sends it: the subject as `pattern`, the payload as `data`,
 * and an `id`, which makes it a request (a packet without one is an event). ClientNats builds
 * it in client/client-proxy.js (createPacket, assignPacketId) and writes it as JSON through
 * serializers/nats-record.serializer.js; ServerNats reads it back with
 * deserializers/nats-request-json.deserializer.js. ServiceClient writes it itself on NATS, to
 * send it over its connection's one reply subscription (NatsRequestMux) rather than the inbox
 * ClientNats subscribes to for every request; the in-process transport carries the same
 * packets.
 */
export interface RequestPacket {
  readonly pattern: string;
  readonly data: unknown;
  readonly id: string;
}

/** A new request packet for `data` on `subject`, with an id of its own. */
export function requestPacket(subject: string, data: unknown): RequestPacket {
  return { pattern: subject, data, id: randomUUID() };
}

/** A packet as a server receives it: a request when it has an id. */
export const IncomingPacket = z.object({
  id: z.string().optional(),
  data: z.unknown().optional(),
});
export type IncomingPacket = z.output<typeof IncomingPacket>;

/**
 * A reply as NestJS's servers send it: the request's `id`, then `response` or `err`, and
 * `isDisposed` on the last reply of a request (ServerNats: server/server.js `send`, which queues
 * the WritePackets of a handler's Observable, and server/server-nats.js `getPublisher`, which
 * adds the id and serialises with serializers/nats-record.serializer.js). ClientNats reads it in
 * client/client-nats.js (createSubscriptionHandler) through
 * deserializers/nats-response-json.deserializer.js. A handler's error arrives as `err`: what its
 * exception filter made of it, `{ status: 'error', message }` for an RpcException.
 */
export const ReplyPacket = z.object({
  id: z.string().optional(),
  response: z.unknown().optional(),
  err: z.unknown().optional(),
  isDisposed: z.boolean().optional(),
});

/** The reply packet that answers the request `id` with `reply`. */
export function replyPacket(id: string, reply: WritePacket): WritePacket & { readonly id: string } {
  return { ...reply, id };
}

// ---------------------------------------------------------------------------------------------
// The NATS client

/**
 * Whether `client` is NestJS's NATS client, whose server end is ServerNats: the client whose
 * requests ServiceClient may write itself as request packets (over the connection its
 * `connect()` opens and `unwrap()` returns) and whose payloads may carry NATS headers
 * (NatsRecordBuilder).
 */
export function isNestNatsClient(client: unknown): client is ClientNats {
  return client instanceof ClientNats;
}

// ---------------------------------------------------------------------------------------------
// The NATS server

/**
 * ServerNats, with what the platform's NATS server needs of its undocumented members given names
 * of its own (DrainingNatsServer extends it):
 * - every message of every subscription goes through `handleMessage(channel, message)`
 *   (server/server-nats.js: bindEvents subscribes each handler's pattern with
 *   getMessageHandler, which calls it), so overriding it sees every message first;
 * - every reply of NestJS's own request path goes through `send(stream$, respond)`
 *   (server/server.js: handleRequest), so overriding it sees every Observable of replies;
 * - the handlers' subscriptions are the private `subscriptions` array of ServerNats, filled by
 *   bindEvents, one nats.js Subscription per handler;
 * - `messageHandlers` is keyed by the pattern as the handler declared it: for a plain subject,
 *   the subject itself (server/server.js: addHandler, normalizePattern).
 */
export abstract class NestNatsServer extends ServerNats {
  /**
   * Called for every message a subscription takes, before NestJS handles it; `nest` handles it
   * the way NestJS does (for a request: its handler's Observable, replied through `send`).
   */
  protected abstract receive(
    channel: string,
    message: Msg,
    nest: () => Promise<unknown>,
  ): Promise<unknown>;

  /** Called with every Observable of replies NestJS's own path is about to send. */
  protected abstract replies(replies$: Observable<unknown>): Observable<unknown>;

  override handleMessage(channel: string, message: Msg): Promise<unknown> {
    return this.receive(channel, message, () => super.handleMessage(channel, message));
  }

  override send(
    replies$: Observable<unknown>,
    respond: Parameters<ServerNats['send']>[1],
  ): Subscription {
    return super.send(this.replies(replies$), respond);
  }

  /**
   * The handler of a subject, read directly: NestJS's own lookup first tries JSON.parse on
   * every incoming subject (server/server.js: getRouteFromPattern), which throws, and captures
   * a stack, for every plain one.
   */
  override getHandlerByPattern(pattern: string): MessageHandler | null {
    return this.messageHandlers.get(pattern) ?? super.getHandlerByPattern(pattern);
  }

  /** The subscriptions NestJS made for the handlers, one per pattern. */
  protected handlerSubscriptions(): readonly NatsSubscription[] {
    const subscriptions: unknown = (this as unknown as { subscriptions?: unknown }).subscriptions;
    if (!Array.isArray(subscriptions)) {
      throw new Error(
        `ServerNats keeps no subscriptions array: nest-internals.ts assumes @nestjs/microservices ${NEST_MICROSERVICES_VERSION}`,
      );
    }
    return subscriptions as NatsSubscription[];
  }

  /** The packet in `message`, read as ServerNats reads it (its deserializer). */
  protected async readPacket(channel: string, message: Msg): Promise<IncomingPacket> {
    return IncomingPacket.parse(
      await this.deserializer.deserialize(message, { channel, replyTo: message.reply }),
    );
  }

  /** The context NestJS hands a handler of `message` (server/server-nats.js: handleMessage). */
  protected contextOf(message: Msg): NatsContext {
    return new NatsContext([message.subject, message.headers]);
  }

  /**
   * Answers the request `id` carried by `message` with one reply, serialised as ServerNats
   * serialises its replies. As NestJS's own path does, a reply that cannot be published is
   * logged, not thrown.
   */
  protected respond(message: Msg, id: string, reply: WritePacket): void {
    try {
      const outgoing = this.serializer.serialize(replyPacket(id, reply)) as {
        readonly data: string;
        readonly headers?: MsgHdrs;
      };
      message.respond(outgoing.data, { headers: outgoing.headers });
    } catch (error) {
      this.logger.error(error);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Handlers

/**
 * A message handler whose pattern carries `extras`: the second argument of MessagePattern is
 * stored with the pattern (decorators/message-pattern.decorator.js), read back when the
 * handlers are registered (listener-metadata-explorer.js, listeners-controller.js) and kept on
 * the handler as `extras` (server/server.js: addHandler), where `extrasOf` reads it.
 */
export function messagePatternWithExtras(
  subject: string,
  extras: Readonly<Record<string, unknown>>,
): MethodDecorator {
  return MessagePattern(subject, { ...extras });
}

/** The extras a handler's pattern was declared with (messagePatternWithExtras). */
export function extrasOf(
  handler: MessageHandler | undefined,
): Readonly<Record<string, unknown>> | undefined {
  return handler?.extras;
}

/**
 * What NestJS's handler answers one request with, its pipes, guards, interceptors and exception
 * filters included: the method's value, or the first value of the Observable it returned.
 * NestJS's handler (context/rpc-context-creator.js, context/rpc-proxy.js) resolves to either,
 * and answers an error with an Observable that fails with what the exception filter made of it
 * (exceptions/base-rpc-exception-filter.js), so an error rejects with that.
 */
export async function handlerReply(
  handler: MessageHandler,
  payload: unknown,
  context: BaseRpcContext,
): Promise<unknown> {
  const result: unknown = await handler(payload, context);
  return isObservable(result) ? firstValueFrom(result, { defaultValue: undefined }) : result;
}

/**
 * Hands the handler `payload` in place of the one it received, from an interceptor: the
 * handler is applied to the same arguments array the interceptors' ExecutionContext holds
 * (context/rpc-context-creator.js), whose first element is the payload.
 */
export function replacePayload(context: ExecutionContext, payload: unknown): void {
  context.getArgs<unknown[]>()[0] = payload;
}
