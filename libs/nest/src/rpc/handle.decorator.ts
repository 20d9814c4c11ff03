import {
  ContractViolation,
  type EventContract,
  parsePayload,
  type RequestContract,
  type StreamContract,
} from '@debate/contracts';
import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  Logger,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import {
  EventPattern,
  MessagePattern,
  type NatsContext,
  RpcException,
} from '@nestjs/microservices';
import { catchError, EMPTY, finalize, type Observable, tap, throwError } from 'rxjs';
import { natsRequestMetrics } from '../operations/metrics.js';
import { contextFrom, inSpan } from '../tracing/tracing.js';
import { INSTANCE_KEY, instanceSubject } from './instance.js';

/**
 * Validates a handler's payload on receipt, counts and times each request, and continues the
 * caller's trace. The reply (or each streamed item) is validated where it is received, by the
 * caller's ServiceClient, as every payload is: checking it here too cost the ranking page's
 * service as much CPU again (a zod pass over every card) and protected no one the receiver's
 * check does not.
 */
@Injectable()
class ContractInterceptor implements NestInterceptor {
  private readonly logger = new Logger('rpc');

  constructor(private readonly contract: RequestContract | StreamContract) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { contract } = this;
    const metrics = natsRequestMetrics();
    const labels = { service: contract.owner, subject: contract.subject };
    const started = performance.now();
    const count = (outcome: 'ok' | 'error' | 'invalid') => {
      metrics.requests.inc({ ...labels, outcome });
      // At debug: one line per request, with the trace it belongs to (the logger adds it).
      this.logger.debug(
        `${contract.subject} ${outcome} in ${(performance.now() - started).toFixed(1)} ms`,
      );
    };
    const args = context.getArgs<unknown[]>();
    try {
      // The handler reads its payload from args[0]: hand it the parsed value.
      args[0] = parsePayload(contract.subject, 'request', contract.request, args[0]);
    } catch (error) {
      count('invalid');
      return throwError(() => toRpcException(error));
    }
    const stopTimer = metrics.duration.startTimer(labels);
    // The caller's trace, from the NATS headers (traceparent), continues here.
    const rpc: unknown = context.switchToRpc().getContext();
    const headers =
      rpc && typeof (rpc as NatsContext).getHeaders === 'function'
        ? (rpc as NatsContext).getHeaders()
        : undefined;
    return inSpan(contract.subject, 'server', contextFrom(headers), () => next.handle()).pipe(
      catchError((error: unknown) => {
        count('error');
        return throwError(() => toRpcException(error));
      }),
      tap({ complete: () => count('ok') }),
      finalize(() => stopTimer()),
    );
  }
}

function toRpcException(error: unknown): unknown {
  if (error instanceof ContractViolation) {
    return new RpcException({ status: 'error', code: 'INVALID_PAYLOAD', message: error.message });
  }
  return error;
}

export interface HandleOptions {
  /**
   * Answer on this instance's own subject (`<subject>.<INSTANCE_KEY>`) instead of the shared
   * one: for requests about state only this instance holds. Callers address it with
   * CallOptions.instance.
   */
  readonly onThisInstance?: boolean;
}

/**
 * Marks a controller method as the handler of `contract`: subscribes it to the contract's
 * subject and validates what comes in and what goes out against the contract's schemas.
 */
export function HandleRequest(
  contract: RequestContract | StreamContract,
  options: HandleOptions = {},
): MethodDecorator {
  return applyDecorators(
    MessagePattern(
      options.onThisInstance ? instanceSubject(contract.subject, INSTANCE_KEY) : contract.subject,
    ),
    UseInterceptors(new ContractInterceptor(contract)),
  );
}

/** Validates an event's payload on receipt; an invalid one is logged and never handled. */
@Injectable()
class EventContractInterceptor implements NestInterceptor {
  private readonly logger = new Logger('HandleEvent');

  constructor(private readonly contract: EventContract) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { contract } = this;
    const args = context.getArgs<unknown[]>();
    try {
      args[0] = parsePayload(contract.subject, 'event', contract.payload, args[0]);
    } catch (error) {
      if (!(error instanceof ContractViolation)) throw error;
      this.logger.warn(`Dropped an invalid event: ${error.message}`);
      return EMPTY;
    }
    return next.handle();
  }
}

/**
 * Marks a controller method as the handler of the event `contract`: one instance of the
 * service (its queue group) receives each event, validated against the contract first.
 */
export function HandleEvent(contract: EventContract): MethodDecorator {
  return applyDecorators(
    EventPattern<string>(contract.subject),
    UseInterceptors(new EventContractInterceptor(contract)),
  );
}
