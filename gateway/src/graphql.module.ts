import type { DynamicModule } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type GraphqlDriverName = 'mercurius' | 'apollo';

/**
 * graphql-ws has no HTTP headers after the upgrade: a client sends its access token in the
 * `connection_init` payload ({ authorization: 'Bearer …' }). This puts it where the auth guard
 * reads it for every operation of the connection.
 */
export function subscriptionContext(data: { payload?: unknown }): {
  req: { headers: Record<string, string | undefined> };
} {
  const payload = data.payload;
  const value =
    payload && typeof payload === 'object'
      ? (payload as Record<string, unknown>)['authorization']
      : undefined;
  return { req: { headers: { authorization: typeof value === 'string' ? value : undefined } } };
}

/**
 * The GraphQL server, code-first. Mercurius is the default: on this gateway it serves about
 * twice the requests per second of Apollo (README, "GraphQL driver"). Apollo stays selectable
 * (GRAPHQL_DRIVER=apollo) so the comparison can be measured again; it is loaded only then.
 */
export async function graphqlModule(driver: GraphqlDriverName): Promise<DynamicModule> {
  if (driver === 'apollo') {
    const { ApolloDriver } = await import('@nestjs/apollo');
    return GraphQLModule.forRoot({
      driver: ApolloDriver,
      path: '/graphql',
      autoSchemaFile: true,
      sortSchema: true,
      playground: false,
      subscriptions: { 'graphql-ws': true },
    });
  }
  const { MercuriusDriver } = await import('@nestjs/mercurius');
  return GraphQLModule.forRoot({
    driver: MercuriusDriver,
    path: '/graphql',
    autoSchemaFile: true,
    sortSchema: true,
    graphiql: false,
    // A query is compiled to JavaScript (graphql-jit) the second time it is seen: the app sends
    // the same few documents over and over, and compiled ones execute with less work per field.
    jit: 1,
    // The reply is there so that the session resolver can set and clear its cookie.
    context: (req: FastifyRequest, reply: FastifyReply) => ({ req, reply }),
    subscription: { onConnect: subscriptionContext },
  });
}
