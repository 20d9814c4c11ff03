import { graphqlOperationMetrics } from '@debate/nest';
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { type Observable, tap } from 'rxjs';

/**
 * Counts and times every GraphQL root field the gateway resolves, labelled by the field's name
 * (a fixed set, unlike the operation names clients choose) and its outcome.
 */
@Injectable()
export class GraphqlMetricsInterceptor implements NestInterceptor {
  private readonly metrics = graphqlOperationMetrics();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<string>() !== 'graphql') return next.handle();
    const operation = GqlExecutionContext.create(context).getInfo<GraphQLResolveInfo>().fieldName;
    const stopTimer = this.metrics.duration.startTimer({ operation });
    const count = (outcome: 'ok' | 'error') => {
      stopTimer();
      this.metrics.operations.inc({ operation, outcome });
    };
    return next.handle().pipe(tap({ next: () => count('ok'), error: () => count('error') }));
  }
}
