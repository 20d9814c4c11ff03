import type { DynamicModule } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type GraphQLSchema, isObjectType } from 'graphql';
import type { Logger } from 'pino';
import { withRootFieldsObserved } from './metrics/observed-root-fields.js';

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
 * NestJS gives every field of a code-first object type a resolver of its own
 * (`rootFieldResolver`: the parent's property, else the field's `defaultValue`). graphql-jit
 * inlines a field without a resolver as a property read, but calls a field with one through its
 * resolver machinery: 210 calls for a ranking page of 10 cards. A field of ours with no default
 * value reads exactly what GraphQL's default resolver reads, so its resolver is dropped; one
 * with a default value, or a resolver of its own (@ResolveField, middleware), keeps it.
 */
export function withPlainFieldsInlined(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve as ((root: object) => unknown) | undefined;
      // Called with an empty parent, Nest's resolver answers the field's default value.
      if (resolve?.name === 'rootFieldResolver' && resolve({}) === undefined) {
        field.resolve = undefined;
      }
    }
  }
  return schema;
}

/**
 * The GraphQL server, code-first. Mercurius is the default: on this gateway it serves about
 * twice the requests per second of Apollo (docs/benchmarks.md, "GraphQL driver: measured"). Apollo stays selectable
 * (GRAPHQL_DRIVER=apollo) so the comparison can be measured again; it is loaded only then.
 */
export async function graphqlModule(
  driver: GraphqlDriverName,
  log: Logger,
): Promise<DynamicModule> {
  const transformSchema = (schema: GraphQLSchema) =>
    withRootFieldsObserved(log)(withPlainFieldsInlined(schema));
  if (driver === 'apollo') {
    const { ApolloDriver } = await import('@nestjs/apollo');
    return GraphQLModule.forRoot({
      driver: ApolloDriver,
      path: '/graphql',
      autoSchemaFile: true,
      sortSchema: true,
      playground: false,
      subscriptions: { 'graphql-ws': true },
      transformSchema,
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
    transformSchema,
    // The reply is there so that the session resolver can set and clear its cookie.
    context: (req: FastifyRequest, reply: FastifyReply) => ({ req, reply }),
    subscription: { onConnect: subscriptionContext },
  });
}
