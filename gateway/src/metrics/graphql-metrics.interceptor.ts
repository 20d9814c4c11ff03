import { contextFrom, graphqlOperationMetrics, inSpan, PINO } from '@debate/nest';
import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import type { Logger } from 'pino';
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

  constructor(@Inject(PINO) private readonly log: Logger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<string>() !== 'graphql') return next.handle();
    const operation = GqlExecutionContext.create(context).getInfo<GraphQLResolveInfo>().fieldName;
    const started = performance.now();
    const stopTimer = this.metrics.duration.startTimer({ operation });
    const count = (outcome: 'ok' | 'error') => {
      stopTimer();
      this.metrics.operations.inc({ operation, outcome });
      // Built only when it is written: this runs for every root field the gateway resolves.
      if (this.log.isLevelEnabled('debug')) {
        this.log.debug(
          { context: 'graphql' },
          `${operation} ${outcome} in ${(performance.now() - started).toFixed(1)} ms`,
        );
      }
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
