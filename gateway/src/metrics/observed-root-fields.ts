import { contextFrom, endSpan, graphqlOperationMetrics, startSpan } from '@debate/nest';
import { context as otelContext, trace } from '@opentelemetry/api';
import {
  defaultFieldResolver,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { Logger } from 'pino';

/** What the gateway's GraphQL context holds of the HTTP request (over HTTP, and graphql-ws). */
interface RequestContext {
  readonly req?: { readonly headers?: Record<string, string | string[] | undefined> };
}

type Resolver = GraphQLFieldResolver<unknown, unknown>;

/**
 * Every GraphQL root field the gateway resolves (queries, mutations, subscriptions): counted
 * and timed, labelled by the field's name (a fixed set, unlike the operation names clients
 * choose) and its outcome; resolved in a span of its own, continuing the caller's trace when
 * the request carries a `traceparent`, which the services' spans then join through the NATS
 * headers; logged at debug with its trace.
 *
 * Done by wrapping the root fields' resolvers in the schema, around NestJS's whole resolver
 * (guards, pipes, filters): as a NestJS interceptor it made NestJS build its Observable
 * pipeline for every operation, about a tenth of the gateway's CPU on a ranking page. An
 * operation the auth guard refuses is counted as an error here.
 */
export function withRootFieldsObserved(log: Logger): (schema: GraphQLSchema) => GraphQLSchema {
  return (schema) => {
    const metrics = graphqlOperationMetrics();
    const observe =
      (operation: string, resolve: Resolver): Resolver =>
      (source, args, context, info) => {
        const started = performance.now();
        const stopTimer = metrics.duration.startTimer({ operation });
        const headers = (context as RequestContext | undefined)?.req?.headers;
        const caller = contextFrom({
          get: (name) => {
            const value = headers?.[name];
            return Array.isArray(value) ? value[0] : value;
          },
        });
        const span = startSpan(`graphql ${operation}`, 'server', caller);
        const end = (outcome: 'ok' | 'error', error?: unknown) => {
          endSpan(span, error);
          stopTimer();
          metrics.operations.inc({ operation, outcome });
          // Built only when it is written: this runs for every root field the gateway resolves.
          if (log.isLevelEnabled('debug')) {
            log.debug(
              { context: 'graphql' },
              `${operation} ${outcome} in ${(performance.now() - started).toFixed(1)} ms`,
            );
          }
        };
        return otelContext.with(trace.setSpan(caller, span), async () => {
          try {
            const value: unknown = await resolve(source, args, context, info);
            end('ok');
            return value;
          } catch (error) {
            end('error', error);
            throw error;
          }
        });
      };
    const roots: Array<[GraphQLObjectType | null | undefined, 'resolve' | 'subscribe']> = [
      [schema.getQueryType(), 'resolve'],
      [schema.getMutationType(), 'resolve'],
      [schema.getSubscriptionType(), 'subscribe'],
    ];
    for (const [type, key] of roots) {
      for (const field of Object.values(type?.getFields() ?? {})) {
        const resolve = field[key] ?? (key === 'resolve' ? defaultFieldResolver : undefined);
        if (resolve) field[key] = observe(field.name, resolve as Resolver);
      }
    }
    return schema;
  };
}
