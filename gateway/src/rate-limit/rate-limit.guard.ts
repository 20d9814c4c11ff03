import {
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import type { AuthenticatedUser } from '../auth/token-verifier.js';
import { RateLimitedError, RateLimiter } from './rate-limiter.js';
import type { RateLimitedAction } from '@debate/contracts';

const RATE_LIMIT = 'debate:rate-limit';

/** Whose account an operation's per-account limit counts. */
type AccountOf =
  /** the signed-in user (the operation is @Authenticated()) */
  | 'user'
  /** the address in the operation's `email` argument (sign-in, sign-up) */
  | 'email-argument';

interface RateLimitMetadata {
  readonly action: RateLimitedAction;
  readonly account?: AccountOf;
}

/** Counts the operation against `action`'s limits (see rate-limits.ts) before it runs. */
export const RateLimit = (action: RateLimitedAction, options: { account?: AccountOf } = {}) =>
  SetMetadata(RATE_LIMIT, { action, ...options } satisfies RateLimitMetadata);

/** "3 minutes", "40 seconds", "2 hours": how long to wait, as a person reads it. */
function waitInWords(seconds: number): string {
  const [amount, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3_600
        ? [Math.ceil(seconds / 60), 'minute']
        : [Math.ceil(seconds / 3_600), 'hour'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/** The GraphQL error of an operation over its limit: RATE_LIMITED, with when to try again. */
export function rateLimited(retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(`Too many attempts. Try again in ${waitInWords(retryAfterSeconds)}.`, {
    extensions: { code: 'RATE_LIMITED', retryAfter: retryAfterSeconds },
  });
}

interface GraphqlHttpContext {
  req?: FastifyRequest & { user?: AuthenticatedUser };
  reply?: FastifyReply;
}

/**
 * Runs after the auth decision (so the signed-in user is known): an operation marked
 * @RateLimit() is counted by client address (Fastify's `request.ip`, which reads
 * X-Forwarded-For only from a proxy TRUST_PROXY names), by account, and against the
 * deployment's ceiling. Over a limit it is refused before its resolver runs, with
 * `Retry-After` on the HTTP answer (whose status is 429 when nothing else in it succeeded).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limit = this.reflector.get<RateLimitMetadata | undefined>(
      RATE_LIMIT,
      context.getHandler(),
    );
    if (!limit || context.getType<string>() !== 'graphql') return true;
    const graphql = GqlExecutionContext.create(context);
    const { req, reply } = graphql.getContext<GraphqlHttpContext>();
    if (!req) return true;
    const account =
      limit.account === 'user'
        ? req.user?.id
        : limit.account === 'email-argument'
          ? emailArgument(graphql.getArgs<Record<string, unknown>>())
          : undefined;
    try {
      await this.limiter.consume(limit.action, { address: req.ip, account });
      return true;
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      void reply?.header('retry-after', String(error.retryAfterSeconds));
      throw rateLimited(error.retryAfterSeconds);
    }
  }
}

/** The account a sign-in or sign-up names: its address as typed, trimmed and lower-cased. */
export function accountOfEmail(email: string): string {
  return email.trim().toLowerCase();
}

function emailArgument(args: Record<string, unknown>): string | undefined {
  const email = args['email'];
  return typeof email === 'string' ? accountOfEmail(email) : undefined;
}
