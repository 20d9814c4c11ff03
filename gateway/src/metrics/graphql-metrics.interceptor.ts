import { contextFrom, graphqlOperationMetrics, inSpan } from '@debate/nest';
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  Logger,
  type NestInterceptor,
} from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { type Observable, tap } from 'rxjs';
import { requestOf } from '../auth/current-user.js';

/**
 * Every GraphQL root field the gateway resolves: counted and timed, labelled by the field's
 * name (a fixed set, unlike the operation names clients choose) and its outcome; resolved in a
 * span of its own, continuing the caller's trace when the request carries a `traceparent`,
 * which the services' spans then join through the NATS headers; logged at debug with its trace.
 */
@Injectable()
export class GraphqlMetricsInterceptor implements NestInterceptor {
  private readonly metrics = graphqlOperationMetrics();
  private readonly logger = new Logger('graphql');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<string>() !== 'graphql') return next.handle();
    const operation = GqlExecutionContext.create(context).getInfo<GraphQLResolveInfo>().fieldName;
    const started = performance.now();
    const stopTimer = this.metrics.duration.startTimer({ operation });
    const count = (outcome: 'ok' | 'error') => {
      stopTimer();
      this.metrics.operations.inc({ operation, outcome });
      this.logger.debug(
        `${operation} ${outcome} in ${(performance.now() - started).toFixed(1)} ms`,
      );
    };
    const headers = requestOf(context)?.headers;
    const caller = contextFrom({
      get: (name) => {
        const value = headers?.[name];
        return Array.isArray(value) ? value[0] : value;
      },
    });
    return inSpan(`graphql ${operation}`, 'server', caller, () => next.handle()).pipe(
      tap({ next: () => count('ok'), error: () => count('error') }),
    );
  }
}
