import {
  ContractViolation,
  parsePayload,
  type RequestContract,
  type StreamContract,
} from '@debate/contracts';
import { Logger } from '@nestjs/common';
import type { BaseRpcContext, MessageHandler } from '@nestjs/microservices';
import { type Context, context as otelContext, type Span, trace } from '@opentelemetry/api';
import { natsRequestMetrics } from '../operations/metrics.js';
import { contextFrom, endSpan, startSpan } from '../tracing/tracing.js';
import { extrasOf, handlerReply } from '../transport/nest-internals.js';

/** A NATS message's headers, or none (the in-process transport has none). */
export type RequestHeaders = { get(name: string): string | undefined } | undefined;

/** What one request is answered with; the server strategy sends it with the request's id. */
export type Reply = { readonly response: unknown } | { readonly err: unknown };

const logger = new Logger('rpc');

/** The error a request refused for its payload is answered with. */
export function invalidPayloadError(error: ContractViolation) {
  return { status: 'error', code: 'INVALID_PAYLOAD', message: error.message };
}

/**
 * What is done around every request a handler takes: it is counted by outcome and timed (per
 * service and subject), logged at debug with the trace it belongs to, and handled in a span
 * continuing the caller's trace (from the NATS headers: `traceparent`).
 */
export class RequestObservation {
  private readonly started = performance.now();
  private readonly stopTimer: () => void;
  private readonly metrics = natsRequestMetrics();
  private readonly span: Span;
  private ended = false;
  /** The context the handler runs in: the caller's trace, this request's span active. */
  readonly context: Context;

  constructor(
    private readonly contract: RequestContract | StreamContract,
    headers: RequestHeaders,
  ) {
    this.stopTimer = this.metrics.duration.startTimer({
      service: contract.owner,
      subject: contract.subject,
    });
    const caller = contextFrom(headers);
    this.span = startSpan(contract.subject, 'server', caller);
    this.context = trace.setSpan(caller, this.span);
  }

  /** Counts the request, ends its span and its timer (once), in the span's context. */
  end(outcome: 'ok' | 'error' | 'invalid', error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    endSpan(this.span, outcome === 'ok' ? undefined : (error ?? outcome));
    // A request refused for its payload was never handled: counted, not timed.
    if (outcome !== 'invalid') this.stopTimer();
    this.metrics.requests.inc({
      service: this.contract.owner,
      subject: this.contract.subject,
      outcome,
    });
    // At debug: one line per request, with the trace it belongs to (the logger adds it); built
    // only when it is written (startService gives NestJS the logger's levels).
    if (Logger.isLevelEnabled('debug')) {
      logger.debug(
        `${this.contract.subject} ${outcome} in ${(performance.now() - this.started).toFixed(1)} ms`,
      );
    }
  }
}

/**
 * Answers one request for a request contract's handler, as both server strategies do: the
 * payload is validated on receipt (an invalid one reaches no handler and is answered with
 * INVALID_PAYLOAD), the handler (NestJS's, with its pipes, guards and exception filters) runs
 * in the request's span, and the outcome is counted. The reply itself is validated where it
 * is received, by the caller's ServiceClient.
 *
 * This is the request path of every service, so it is plain async code: the same work as an
 * interceptor, without the Observable chains NestJS builds around one (measured: a third of
 * the service's share of a NATS hop).
 */
export function answerRequest(
  contract: RequestContract,
  data: unknown,
  headers: RequestHeaders,
  handler: MessageHandler,
  rpcContext: BaseRpcContext,
): Promise<Reply> {
  const observation = new RequestObservation(contract, headers);
  return otelContext.with(observation.context, async (): Promise<Reply> => {
    let payload: unknown;
    try {
      payload = parsePayload(contract.subject, 'request', contract.request, data);
    } catch (error) {
      if (!(error instanceof ContractViolation)) throw error;
      observation.end('invalid', error);
      return { err: invalidPayloadError(error) };
    }
    try {
      const response = await handlerReply(handler, payload, rpcContext);
      observation.end('ok');
      return { response };
    } catch (error) {
      observation.end('error', error);
      return { err: error };
    }
  });
}

/** The extras key under which HandleRequest leaves a request contract for the server. */
export const REQUEST_CONTRACT = 'debate:requestContract';

/** The request contract a handler answers, when HandleRequest registered it as one. */
export function requestContractOf(
  handler: MessageHandler | undefined,
): RequestContract | undefined {
  const contract = extrasOf(handler)?.[REQUEST_CONTRACT] as RequestContract | undefined;
  return contract?.kind === 'request' ? contract : undefined;
}
