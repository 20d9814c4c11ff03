import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ClosedConnectionError,
  connect,
  type NatsConnection,
  NoRespondersError,
  TimeoutError,
} from '@nats-io/transport-node';
import { catalogContracts } from '@debate/contracts';
import { ServiceClient, ServiceError } from '../client/service-client.js';
import { type RunningNats, startNatsServer } from '../testing/nats-server.js';
import { createClientProxy, natsTransport } from './transport.factory.js';
import { NatsRequestMux, requestMuxOf } from './nats-request-mux.js';

describe('NatsRequestMux, over a real nats-server', () => {
  let nats: RunningNats;
  let responder: NatsConnection;
  let caller: NatsConnection;
  const answers = new Set<NodeJS.Timeout>();

  beforeAll(async () => {
    nats = await startNatsServer();
    responder = await connect({ servers: [nats.url] });
    caller = await connect({ servers: [nats.url] });
    // Answers after the delay the request asks for, so replies come back out of order.
    responder.subscribe('test.echo', {
      callback: (_error, message) => {
        const { delayMs, value } = message.json<{ delayMs: number; value: number }>();
        const answer = setTimeout(() => {
          answers.delete(answer);
          message.respond(JSON.stringify({ value }));
        }, delayMs);
        answers.add(answer);
      },
    });
    await responder.flush();
  });

  afterAll(async () => {
    for (const answer of answers) clearTimeout(answer);
    await caller.close();
    await responder.close();
    await nats.stop();
  });

  it('gives each of many concurrent requests its own reply, whatever the order of replies', async () => {
    const mux = requestMuxOf(caller);
    const values = Array.from({ length: 300 }, (_, index) => index);
    const replies = await Promise.all(
      values.map((value) =>
        mux.request('test.echo', JSON.stringify({ value, delayMs: (value * 7) % 23 }), {
          timeoutMs: 2_000,
        }),
      ),
    );
    expect(replies.map((reply) => reply.json<{ value: number }>().value)).toEqual(values);
    expect(requestMuxOf(caller)).toBe(mux);
  });

  it('fails at once with no responders when nobody subscribes to the subject', async () => {
    const started = performance.now();
    const error = await requestMuxOf(caller)
      .request('test.nobody', '{}', { timeoutMs: 2_000 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NoRespondersError);
    expect((error as Error).message).toContain('test.nobody');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('times out a request not answered in time, and drops its late reply', async () => {
    const mux = requestMuxOf(caller);
    const slow = mux
      .request('test.echo', JSON.stringify({ value: 1, delayMs: 300 }), { timeoutMs: 100 })
      .catch((caught: unknown) => caught);
    await expect(slow).resolves.toBeInstanceOf(TimeoutError);
    // The late reply (value 1) arrives while this one waits: it must not be taken for it.
    const next = await mux.request('test.echo', JSON.stringify({ value: 2, delayMs: 250 }), {
      timeoutMs: 2_000,
    });
    expect(next.json<{ value: number }>().value).toBe(2);
  });

  it("sends a deployable's requests with reply subjects under its own inbox prefix", async () => {
    const replyTo: string[] = [];
    const subscription = responder.subscribe(catalogContracts.generationCatalog.subject, {
      callback: (_error, message) => {
        replyTo.push(message.reply ?? '');
        message.respond(JSON.stringify({ response: { models: [] }, isDisposed: true }));
      },
    });
    await responder.flush();
    // The client knows its deployable only through the connection it opened.
    const client = new ServiceClient(createClientProxy(natsTransport(nats.url), 'gateway'), 2_000);
    const anonymous = await connect({ servers: [nats.url] });
    try {
      await client.request(catalogContracts.generationCatalog, {}).catch(() => undefined);
      await requestMuxOf(anonymous).request(catalogContracts.generationCatalog.subject, '{}', {
        timeoutMs: 2_000,
      });
      expect(replyTo).toEqual([
        expect.stringMatching(/^_INBOX_gateway\.[^.]+\.[^.]+$/),
        expect.stringMatching(/^_INBOX\.[^.]+\.[^.]+$/),
      ]);
    } finally {
      subscription.unsubscribe();
      await client.close();
      await anonymous.close();
    }
  });

  it('has ServiceClient refuse a reply that is not a NestJS reply packet', async () => {
    const answers = ['not json', '[1, 2]', JSON.stringify({ err: 'the catalog is locked' })];
    let next = 0;
    const subscription = responder.subscribe(catalogContracts.generationCatalog.subject, {
      callback: (_error, message) => {
        message.respond(answers[next++] ?? '');
      },
    });
    await responder.flush();
    const client = new ServiceClient(
      createClientProxy(natsTransport(nats.url), { anonymous: 'mux-test' }),
      2_000,
    );
    try {
      const failures: unknown[] = [];
      for (let i = 0; i < answers.length; i += 1) {
        failures.push(
          await client
            .request(catalogContracts.generationCatalog, {})
            .catch((caught: unknown) => caught),
        );
      }
      expect(failures.every((failure) => failure instanceof ServiceError)).toBe(true);
      expect(failures.map((failure) => (failure as Error).message)).toEqual([
        'the reply is not JSON',
        'the reply is not a reply packet',
        'the catalog is locked',
      ]);
    } finally {
      subscription.unsubscribe();
      await client.close();
    }
  });

  it('fails the requests still waiting when the connection closes', async () => {
    const own = await connect({ servers: [nats.url] });
    const mux = new NatsRequestMux(own);
    const waiting = mux
      .request('test.echo', JSON.stringify({ value: 3, delayMs: 1_500 }), { timeoutMs: 10_000 })
      .catch((caught: unknown) => caught);
    await own.flush();
    const started = performance.now();
    await own.close();
    await expect(waiting).resolves.toBeInstanceOf(ClosedConnectionError);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
