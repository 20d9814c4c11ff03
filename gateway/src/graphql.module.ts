import type { DynamicModule } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import { MercuriusDriver } from '@nestjs/mercurius';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ExecutionResult, type GraphQLSchema, isObjectType } from 'graphql';
import mercurius, { type MercuriusContext } from 'mercurius';
import type { Logger } from 'pino';
import { withRootFieldsObserved } from './metrics/observed-root-fields.js';
import {
  type QueryLimits,
  queryLimitRules,
  subscriptionValidationHooks,
} from './query-limits/query-limits.js';
import { admittedConnection } from './query-limits/websocket-limits.js';

// The context of a WebSocket connection's operations: defined with the connection's limits.
export { subscriptionContext } from './query-limits/websocket-limits.js';

type ErrorFormatter = (
  execution: ExecutionResult & Required<Pick<ExecutionResult, 'errors'>>,
  context: MercuriusContext,
) => { statusCode: number; response: ExecutionResult };

/** The HTTP status of an operation refused as a whole, by its errors' code. */
const REFUSAL_STATUS: Readonly<Record<string, number>> = {
  // Over a rate limit (the guard has set Retry-After).
  RATE_LIMITED: 429,
  // Over a query limit, refused before any resolver ran; Mercurius itself answers 400 for one
  // validation error but 200 for several.
  QUERY_TOO_COMPLEX: 400,
};

/**
 * Mercurius's answer, with the status a client that reads status codes expects when nothing of
 * the operation succeeded and every error says why in the same way: 429 for RATE_LIMITED, 400
 * for QUERY_TOO_COMPLEX.
 */
function withRefusalStatus(format: ErrorFormatter): ErrorFormatter {
  return (execution, context) => {
    const formatted = format(execution, context);
    const codes = new Set(
      (formatted.response.errors ?? []).map((error) => error.extensions?.['code']),
    );
    const [code] = codes;
    const status = codes.size === 1 && typeof code === 'string' ? REFUSAL_STATUS[code] : undefined;
    // Nothing succeeded: no data, or every root field null (a nullable field refused).
    const data = formatted.response.data;
    const nothing = !data || Object.values(data).every((value) => value === null);
    return nothing && status ? { ...formatted, statusCode: status } : formatted;
  };
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
 * The GraphQL server, code-first, on Mercurius: on this gateway it served about twice the
 * requests per second of Apollo (docs/benchmarks.md, "GraphQL driver: measured").
 */
export function graphqlModule(log: Logger, limits: QueryLimits): DynamicModule {
  // One set of rules for every transport: HTTP's validation, and the WebSocket's hooks below.
  const rules = queryLimitRules(limits);
  return GraphQLModule.forRoot({
    driver: MercuriusDriver,
    path: '/graphql',
    autoSchemaFile: true,
    sortSchema: true,
    graphiql: false,
    // A query is compiled to JavaScript (graphql-jit) the second time it is seen: the app sends
    // the same few documents over and over, and compiled ones execute with less work per field.
    jit: 1,
    // Checked once per document (Mercurius caches a validated query), before any resolver runs.
    validationRules: rules,
    errorFormatter: withRefusalStatus(mercurius.defaultErrorFormatter as ErrorFormatter),
    transformSchema: (schema: GraphQLSchema) =>
      withRootFieldsObserved(log)(withPlainFieldsInlined(schema)),
    // The reply is there so that the session resolver can set and clear its cookie.
    context: (req: FastifyRequest, reply: FastifyReply) => ({ req, reply }),
    // Its WebSocket server (message size, connection counts, the connection_init deadline) is
    // registered before this module: websocket-limits.ts. Each token that becomes a
    // connection's context (connection_init, or a subscribe's connectionInit extension) is
    // counted against its account first.
    subscription: { onConnect: admittedConnection },
    // A subscription is validated as a query is over HTTP, before anything is subscribed.
    hooks: subscriptionValidationHooks(rules),
  });
}
