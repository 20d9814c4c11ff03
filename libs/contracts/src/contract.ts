import type { z } from 'zod';
import type { ServiceName, Subject } from './subjects.js';

/**
 * A request/reply message: the subject it travels on, the service that answers it,
 * and the schemas of what is sent and what comes back. Each payload is validated where it is
 * received (the request by the answering service, the reply by the caller); the caller also
 * checks its request before sending it, so that its own mistake fails where it was made.
 */
export interface RequestContract<
  Req extends z.ZodType = z.ZodType,
  Res extends z.ZodType = z.ZodType,
> {
  readonly kind: 'request';
  readonly subject: Subject;
  readonly owner: ServiceName;
  readonly request: Req;
  readonly response: Res;
}

/** A request whose handler answers with a stream of items, each validated like a reply. */
export interface StreamContract<
  Req extends z.ZodType = z.ZodType,
  Item extends z.ZodType = z.ZodType,
> {
  readonly kind: 'stream';
  readonly subject: Subject;
  readonly owner: ServiceName;
  readonly request: Req;
  readonly item: Item;
}

/**
 * A fact a service records in its event log (a JetStream stream, see streams.ts): every
 * subscribing service handles each event once, even one published while it was down.
 */
export interface EventContract<Payload extends z.ZodType = z.ZodType> {
  readonly kind: 'event';
  readonly subject: Subject;
  /** The service that publishes it. */
  readonly owner: ServiceName;
  readonly payload: Payload;
}

export type EventPayloadOf<C extends EventContract> = z.input<C['payload']>;

export type RequestOf<C extends RequestContract | StreamContract> = z.input<C['request']>;
export type ParsedRequestOf<C extends RequestContract | StreamContract> = z.output<C['request']>;
export type ResponseOf<C extends RequestContract> = z.output<C['response']>;
export type ItemOf<C extends StreamContract> = z.output<C['item']>;

export type PayloadDirection = 'request' | 'response' | 'item' | 'event';

function ownerOf(subject: Subject): ServiceName {
  return subject.slice(0, subject.indexOf('.')) as ServiceName;
}

export function defineRequest<Req extends z.ZodType, Res extends z.ZodType>(
  subject: Subject,
  request: Req,
  response: Res,
): RequestContract<Req, Res> {
  return { kind: 'request', subject, owner: ownerOf(subject), request, response };
}

export function defineStream<Req extends z.ZodType, Item extends z.ZodType>(
  subject: Subject,
  request: Req,
  item: Item,
): StreamContract<Req, Item> {
  return { kind: 'stream', subject, owner: ownerOf(subject), request, item };
}

export function defineEvent<Payload extends z.ZodType>(
  subject: Subject,
  payload: Payload,
): EventContract<Payload> {
  return { kind: 'event', subject, owner: ownerOf(subject), payload };
}

/** Raised when a payload does not match its contract, naming the subject and every bad field. */
export class ContractViolation extends Error {
  constructor(
    readonly subject: Subject,
    readonly direction: PayloadDirection,
    readonly issues: readonly string[],
  ) {
    super(`Invalid ${direction} on ${subject}: ${issues.join('; ')}`);
    this.name = 'ContractViolation';
  }
}

export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(payload)';
    return `${path}: ${issue.message}`;
  });
}

/** Parses `payload` with `schema`, or throws a ContractViolation naming what is wrong. */
export function parsePayload<S extends z.ZodType>(
  subject: Subject,
  direction: PayloadDirection,
  schema: S,
  payload: unknown,
): z.output<S> {
  const result = schema.safeParse(payload);
  if (!result.success)
    throw new ContractViolation(subject, direction, describeIssues(result.error));
  return result.data;
}
