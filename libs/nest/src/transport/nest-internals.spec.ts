import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type CallHandler,
  Controller,
  type ExecutionContext,
  type INestMicroservice,
  Injectable,
  Module,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  ClientNats,
  type CustomTransportStrategy,
  type MessageHandler,
  MessagePattern,
  NatsContext,
  NatsRecordBuilder,
  NatsRequestJSONDeserializer,
  NatsResponseJSONDeserializer,
  RpcException,
  Server,
  ServerNats,
  type WritePacket,
} from '@nestjs/microservices';
import {
  connect,
  headers as natsHeaders,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
} from '@nats-io/transport-node';
// NestJS does not export its serializers from the package's root.
import { NatsRecordSerializer } from '@nestjs/microservices/serializers/nats-record.serializer.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { firstValueFrom, type Observable, of, throwError, toArray } from 'rxjs';
import { type RunningNats, startNatsServer } from '../testing/nats-server.js';
import {
  extrasOf,
  handlerReply,
  IncomingPacket,
  isNestNatsClient,
  messagePatternWithExtras,
  NEST_MICROSERVICES_VERSION,
  NestNatsServer,
  replacePayload,
  ReplyPacket,
  replyPacket,
  requestPacket,
} from './nest-internals.js';

// Each test pins one assumption of nest-internals.ts against the installed @nestjs/microservices,
// by what NestJS does rather than by its source: one that fails names what an upgrade changed.

const ECHO = 'test.internals.echo';
const FAILING = 'test.internals.failing';
const DIRECT = 'test.internals.direct';
const CAPTURE = 'test.internals.capture';

/** A message as nats.js hands one to a subscription, recording what is sent back on it. */
function natsMessage(text: string, subject = ECHO) {
  const replies: Array<{ readonly data: string; readonly headers: MsgHdrs | undefined }> = [];
  const message = {
    subject,
    reply: '_INBOX.test',
    headers: undefined,
    data: new TextEncoder().encode(text),
    json: () => JSON.parse(text) as unknown,
    string: () => text,
    respond: (data: string, options?: { headers?: MsgHdrs }) => {
      replies.push({ data, headers: options?.headers });
      return true;
    },
  };
  return { message: message as unknown as Msg, replies };
}

/** The NATS server base, with what it names recorded, and its protected helpers reachable. */
class ProbeServer extends NestNatsServer {
  readonly received: string[] = [];
  repliesSent = 0;
  /** What each path gave the handler of a message as its context: [subject, x-test header]. */
  readonly contexts: Array<[string, string | undefined]> = [];

  protected async receive(
    channel: string,
    message: Msg,
    nest: () => Promise<unknown>,
  ): Promise<unknown> {
    this.received.push(channel);
    if (channel !== DIRECT) return nest();
    const { id } = await this.readPacket(channel, message);
    const context = this.contextOf(message);
    this.contexts.push([context.getSubject(), context.getHeaders()?.get('x-test')]);
    if (id !== undefined) this.respond(message, id, { response: 'direct', isDisposed: true });
    return undefined;
  }

  protected replies(replies$: Observable<unknown>): Observable<unknown> {
    this.repliesSent += 1;
    return replies$;
  }

  subscriptionsTaken() {
    return this.handlerSubscriptions();
  }

  respondTo(message: Msg, id: string, reply: WritePacket): void {
    this.respond(message, id, reply);
  }
}

describe('the @nestjs/microservices nest-internals.ts was written against', () => {
  it('is the one installed', () => {
    const entry = createRequire(import.meta.url).resolve('@nestjs/microservices');
    const manifest = JSON.parse(readFileSync(join(dirname(entry), 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(manifest.version).toBe(NEST_MICROSERVICES_VERSION);
  });
});

describe('the request packet', () => {
  it('is written as NestJS’s NATS client serialises the same request', () => {
    const packet = requestPacket(ECHO, { n: 1 });
    expect(packet).toEqual({ pattern: ECHO, data: { n: 1 }, id: expect.any(String) });
    expect(requestPacket(ECHO, { n: 1 }).id).not.toBe(packet.id);
    const nest = new NatsRecordSerializer().serialize({ ...packet });
    expect(nest.data).toBe(JSON.stringify(packet));
    expect(nest.headers).toBeUndefined();
  });

  it('is read by NestJS’s NATS server as a request, with its id and payload', async () => {
    const packet = requestPacket(ECHO, { n: 1 });
    const read: unknown = await new NatsRequestJSONDeserializer().deserialize(
      natsMessage(JSON.stringify(packet)).message,
      { channel: ECHO },
    );
    expect(read).toEqual(packet);
    expect(IncomingPacket.parse(read)).toEqual({ id: packet.id, data: { n: 1 } });
  });
});

describe('the reply packet', () => {
  const server = new ProbeServer({});
  const nest = new ServerNats({});
  const replies: WritePacket[] = [
    { response: { n: 1 }, isDisposed: true },
    { response: 'one of several' },
    { err: { status: 'error', message: 'the catalog is being rebuilt' }, isDisposed: true },
  ];

  it.each(replies)('is published as NestJS’s NATS server publishes %j', (reply) => {
    const ours = natsMessage('{}');
    const theirs = natsMessage('{}');
    server.respondTo(ours.message, 'request-1', { ...reply });
    const context = new NatsContext([ECHO, undefined]);
    nest.getPublisher(theirs.message, 'request-1', context)({ ...reply });
    expect(ours.replies).toEqual(theirs.replies);
    expect(JSON.parse(ours.replies[0]?.data ?? '')).toEqual(replyPacket('request-1', reply));
  });

  it('is read by NestJS’s NATS client as the reply to its request', async () => {
    const reply = replyPacket('request-1', { response: { n: 1 }, isDisposed: true });
    const read: unknown = await new NatsResponseJSONDeserializer().deserialize(
      natsMessage(JSON.stringify(reply)).message,
    );
    expect(read).toEqual({ id: 'request-1', response: { n: 1 }, isDisposed: true });
    expect(ReplyPacket.parse(read)).toEqual(read);
  });
});

describe('the NATS server and client, over a real nats-server', () => {
  let nats: RunningNats;
  let server: ProbeServer;
  let client: ClientNats;
  let raw: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsServer();
    server = new ProbeServer({ servers: [nats.url], queue: 'internals' });
    const echo: MessageHandler = async (data: unknown, context?: NatsContext) => {
      server.contexts.push([context?.getSubject() ?? '', context?.getHeaders()?.get('x-test')]);
      return of(data, data);
    };
    server.addHandler(ECHO, echo);
    server.addHandler(FAILING, async () =>
      throwError(() => ({ status: 'error', message: 'the catalog is being rebuilt' })),
    );
    server.addHandler(DIRECT, async () => 'answered by receive instead');
    await new Promise<void>((resolve, reject) =>
      server.listen((error) => (error ? reject(error as Error) : resolve())),
    );
    client = new ClientNats({ servers: [nats.url] });
    await client.connect();
    raw = await connect({ servers: [nats.url] });
  });

  afterAll(async () => {
    await raw.close();
    await client.close();
    await server.close();
    await nats.stop();
  });

  it('hands every message to handleMessage and every stream of replies to send', async () => {
    const before = { received: server.received.length, replies: server.repliesSent };
    const items = await firstValueFrom(client.send(ECHO, { n: 1 }).pipe(toArray()));
    expect(items).toEqual([{ n: 1 }, { n: 1 }]);
    expect(server.received.slice(before.received)).toEqual([ECHO]);
    expect(server.repliesSent - before.replies).toBe(1);
  });

  it('answers a request packet written by hand, as NestJS’s client is answered', async () => {
    const packet = requestPacket(ECHO, { n: 2 });
    const reply = ReplyPacket.parse(
      (await raw.request(ECHO, JSON.stringify(packet), { timeout: 2_000 })).json(),
    );
    expect(reply).toEqual({ id: packet.id, response: { n: 2 } });
  });

  it('sends a handler’s error as err, with isDisposed', async () => {
    const packet = requestPacket(FAILING, {});
    const reply = ReplyPacket.parse(
      (await raw.request(FAILING, JSON.stringify(packet), { timeout: 2_000 })).json(),
    );
    expect(reply).toEqual({
      id: packet.id,
      err: { status: 'error', message: 'the catalog is being rebuilt' },
      isDisposed: true,
    });
  });

  it('has NestJS’s client take a reply written by respond as the whole answer', async () => {
    const items = await firstValueFrom(client.send(DIRECT, {}).pipe(toArray()));
    expect(items).toEqual(['direct']);
  });

  it('builds a handler’s context as NestJS builds it', async () => {
    const traced = () => {
      const headers = natsHeaders();
      headers.set('x-test', 'carried');
      return headers;
    };
    server.contexts.length = 0;
    await firstValueFrom(
      client.send(ECHO, new NatsRecordBuilder({ n: 3 }).setHeaders(traced()).build()),
    );
    await firstValueFrom(
      client.send(DIRECT, new NatsRecordBuilder({}).setHeaders(traced()).build()),
    );
    expect(server.contexts).toEqual([
      [ECHO, 'carried'],
      [DIRECT, 'carried'],
    ]);
  });

  it('sends NestJS’s client’s requests as request packets', async () => {
    const seen: unknown[] = [];
    const subscription = raw.subscribe(CAPTURE, {
      callback: (_error, message) => {
        const packet = IncomingPacket.parse(message.json());
        seen.push(message.json());
        if (packet.id !== undefined) {
          message.respond(
            JSON.stringify(replyPacket(packet.id, { response: 'captured', isDisposed: true })),
          );
        }
      },
    });
    await raw.flush();
    try {
      await expect(firstValueFrom(client.send(CAPTURE, { n: 4 }))).resolves.toBe('captured');
      expect(seen).toEqual([{ pattern: CAPTURE, data: { n: 4 }, id: expect.any(String) }]);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('keeps one subscription per handler, where handlerSubscriptions finds them', () => {
    const subscriptions = server.subscriptionsTaken();
    expect(subscriptions.map((subscription) => subscription.getSubject()).sort()).toEqual(
      [DIRECT, ECHO, FAILING].sort(),
    );
    for (const subscription of subscriptions) {
      expect(typeof subscription.drain).toBe('function');
    }
  });

  it('finds a plain subject’s handler as NestJS’s own lookup does', () => {
    const handler = server.getHandlerByPattern(ECHO);
    expect(handler).not.toBeNull();
    expect(handler).toBe(Server.prototype.getHandlerByPattern.call(server, ECHO));
  });

  it('tells NestJS’s NATS client from any other', () => {
    expect(isNestNatsClient(client)).toBe(true);
    expect(isNestNatsClient({ send: () => of(undefined) })).toBe(false);
  });
});

describe('handlers, as NestJS builds them', () => {
  /** A transport that only collects the handlers NestJS registers. */
  class HandlerRegistry extends Server implements CustomTransportStrategy {
    listen(callback: () => void): void {
      callback();
    }
    close(): void {}
    on(): void {}
    unwrap<T>(): T {
      throw new Error('no broker');
    }
    handler(pattern: string): MessageHandler {
      const handler = this.getHandlers().get(pattern);
      if (!handler) throw new Error(`no handler for ${pattern}`);
      return handler;
    }
  }

  @Injectable()
  class Doubling implements NestInterceptor {
    intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
      const { n } = context.switchToRpc().getData<{ n: number }>();
      replacePayload(context, { n: n * 2 });
      return next.handle();
    }
  }

  @Controller()
  class ProbeController {
    @messagePatternWithExtras('test.handlers.extras', { contract: 'probe' })
    extras() {
      return 'extras';
    }

    @MessagePattern('test.handlers.value')
    value(payload: { n: number }) {
      return payload.n;
    }

    @MessagePattern('test.handlers.observable')
    observable() {
      return of('first', 'second');
    }

    @MessagePattern('test.handlers.failing')
    failing() {
      throw new RpcException('the catalog is being rebuilt');
    }

    @MessagePattern('test.handlers.replaced')
    @UseInterceptors(new Doubling())
    replaced(payload: { n: number }) {
      return payload.n;
    }
  }

  @Module({ controllers: [ProbeController] })
  class ProbeModule {}

  const registry = new HandlerRegistry();
  const context = new NatsContext(['test.handlers', undefined]);
  let app: INestMicroservice;

  beforeAll(async () => {
    app = await NestFactory.createMicroservice(ProbeModule, { strategy: registry, logger: false });
    await app.init();
  });

  afterAll(async () => {
    await app.close();
  });

  it('keeps the extras a pattern was declared with on its handler', () => {
    expect(extrasOf(registry.handler('test.handlers.extras'))).toEqual({ contract: 'probe' });
    expect(extrasOf(registry.handler('test.handlers.value'))?.['contract']).toBeUndefined();
  });

  it('answers with the method’s value, or the first value of its Observable', async () => {
    await expect(
      handlerReply(registry.handler('test.handlers.value'), { n: 21 }, context),
    ).resolves.toBe(21);
    await expect(
      handlerReply(registry.handler('test.handlers.observable'), {}, context),
    ).resolves.toBe('first');
  });

  it('rejects with what the exception filter made of an error', async () => {
    await expect(
      handlerReply(registry.handler('test.handlers.failing'), {}, context),
    ).rejects.toEqual({ status: 'error', message: 'the catalog is being rebuilt' });
  });

  it('hands the method the payload an interceptor replaced', async () => {
    await expect(
      handlerReply(registry.handler('test.handlers.replaced'), { n: 4 }, context),
    ).resolves.toBe(8);
  });
});
