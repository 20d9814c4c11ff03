import { inProcessTransport } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { GraphQLError } from 'graphql';
import { createClient } from 'graphql-ws';
import mercurius from 'mercurius';
import WebSocket from 'ws';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import {
  DEFAULT_QUERY_LIMITS,
  queryLimitRules,
  subscriptionValidationHooks,
} from './query-limits.js';
import { admittedConnection, registerWebSocketServer } from './websocket-limits.js';

/** What of Mercurius's connection this test reads: where it files each subscription by id. */
interface FiledSubscriptions {
  readonly subscriptionContexts: Map<unknown, unknown>;
  readonly subscriptionIters: Map<unknown, unknown>;
}

// Mercurius files a subscription under its id before it runs (and before its
// preSubscriptionExecution hook), and forgets it when the client completes it or the socket
// closes: a refused subscription must not stay filed, or one socket could file them without end.
describe('refused subscriptions on one WebSocket', () => {
  let app: FastifyInstance;
  let url: string;
  /** Mercurius's connections, as its onConnect sees them (`this`). */
  const connections: FiledSubscriptions[] = [];

  beforeAll(async () => {
    app = Fastify();
    await registerWebSocketServer(
      app,
      {
        maxPayloadBytes: 64 * 1024,
        connectionInitTimeoutMs: 10_000,
        openPerAddress: 10,
        openPerAccount: 10,
      },
      new RateLimiter('off', inProcessTransport()),
      undefined,
    );
    await app.register(mercurius, {
      schema:
        'type Query { ok: Boolean } type Tick { n: Int } type Subscription { tick(refuse: Boolean): Tick }',
      resolvers: {
        Subscription: {
          tick: {
            subscribe: (_root: unknown, args: { refuse?: boolean }) => {
              if (args.refuse) throw new GraphQLError('Refused by the resolver');
              return (async function* () {
                yield { tick: { n: 1 } };
              })();
            },
          },
        },
      },
      subscription: {
        async onConnect(this: unknown, data: { payload?: unknown }) {
          connections.push(this as FiledSubscriptions);
          return admittedConnection.call(this, data);
        },
      },
    });
    const hooks = subscriptionValidationHooks(queryLimitRules(DEFAULT_QUERY_LIMITS));
    app.graphql.addHook('preSubscriptionParsing', hooks.preSubscriptionParsing);
    app.graphql.addHook('preSubscriptionExecution', hooks.preSubscriptionExecution);
    url = `${(await app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/graphql`;
  });

  afterAll(async () => {
    await app.close();
  });

  it('keeps none of 100 refused over a query limit or by the resolver filed', async () => {
    const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    const aliases = Array.from({ length: 100 }, (_, i) => `n${i}: n`).join(' ');
    const outcome = (query: string) =>
      new Promise<string>((resolve) => {
        client.subscribe(
          { query },
          {
            next: () => undefined,
            error: (error) => resolve(JSON.stringify(error)),
            complete: () => resolve('complete'),
          },
        );
      });
    try {
      const refusals = await Promise.all(
        Array.from({ length: 50 }, () => [
          outcome(`subscription { tick { ${aliases} } }`),
          outcome('subscription { tick(refuse: true) { n } }'),
        ]).flat(),
      );
      expect(refusals.filter((error) => error.includes('QUERY_TOO_COMPLEX'))).toHaveLength(50);
      expect(refusals.filter((error) => error.includes('Refused by the resolver'))).toHaveLength(
        50,
      );
      // One that runs to its end, after them: it is answered after the refusals were forgotten.
      expect(await outcome('subscription { tick { n } }')).toBe('complete');
      const [connection] = connections;
      expect(connections).toHaveLength(1);
      expect(connection?.subscriptionContexts.size).toBe(0);
      expect(connection?.subscriptionIters.size).toBe(0);
    } finally {
      await client.dispose();
    }
  });
});
