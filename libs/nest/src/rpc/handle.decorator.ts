import {
  ContractViolation,
  parsePayload,
  type RequestContract,
  type StreamContract,
} from '@debate/contracts';
import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { MessagePattern, type NatsContext, RpcException } from '@nestjs/microservices';
import { context as otelContext } from '@opentelemetry/api';
import { Observable, throwError } from 'rxjs';
import { messagePatternWithExtras, replacePayload } from '../transport/nest-internals.js';
import { invalidPayloadError, REQUEST_CONTRACT, RequestObservation } from './answer-request.js';
import { INSTANCE_KEY, instanceSubject } from './instance.js';

/**
 * A stream handler's requests: what answerRequest does for a request contract, around the
 * Observable of items the handler returns (its span and timer end when the stream does).
 * Each streamed item is validated where it is received, by the caller's ServiceClient.
 */
@Injectable()
class StreamContractInterceptor implements NestInterceptor {
  constructor(private readonly contract: StreamContract) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { contract } = this;
    const rpc: unknown = context.switchToRpc().getContext();
    const headers =
      rpc && typeof (rpc as NatsContext).getHeaders === 'function'
        ? (rpc as NatsContext).getHeaders()
        : undefined;
    const observation = new RequestObservation(contract, headers);
    try {
      // The handler gets the parsed value (with the schema's defaults), not what was sent.
      replacePayload(
        context,
        parsePayload(
          contract.subject,
          'request',
          contract.request,
          context.switchToRpc().getData(),
        ),
      );
    } catch (error) {
      if (!(error instanceof ContractViolation)) throw error;
      otelContext.with(observation.context, () => observation.end('invalid', error));
      return throwError(() => new RpcException(invalidPayloadError(error)));
    }
    return new Observable<unknown>((subscriber) => {
      const items = otelContext.with(observation.context, () =>
        next.handle().subscribe({
          next: (item) => subscriber.next(item),
          error: (error: unknown) => {
            observation.end('error', error);
            subscriber.error(error);
          },
          complete: () => {
            observation.end('ok');
            subscriber.complete();
          },
        }),
      );
      return () => {
        items.unsubscribe();
        // Not ended yet: no one reads the stream any more (the server closed).
        observation.end('error', new Error('the stream was unsubscribed before it ended'));
      };
    });
  }
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
 * subject; every request is validated against the contract's request schema before it
 * reaches the method, counted, timed and traced (answerRequest). The reply is validated by
 * the caller, where it is received.
 */
export function HandleRequest(
  contract: RequestContract | StreamContract,
  options: HandleOptions = {},
): MethodDecorator {
  const subject = options.onThisInstance
    ? instanceSubject(contract.subject, INSTANCE_KEY)
    : contract.subject;
  // A request's handler is answered by the server strategy itself (answerRequest), which
  // finds its contract among the pattern's extras; a stream's through an interceptor.
  return contract.kind === 'request'
    ? messagePatternWithExtras(subject, { [REQUEST_CONTRACT]: contract })
    : applyDecorators(
        MessagePattern(subject),
        UseInterceptors(new StreamContractInterceptor(contract)),
      );
}
