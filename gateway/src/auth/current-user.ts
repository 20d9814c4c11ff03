import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { AuthenticatedUser } from './token-verifier.js';

/** The HTTP request behind a call, whether it came as GraphQL or as a plain route. */
export interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  user?: AuthenticatedUser;
}

export function requestOf(context: ExecutionContext): AuthRequest | undefined {
  if (context.getType<string>() === 'graphql') {
    const graphqlContext = GqlExecutionContext.create(context).getContext<{ req?: AuthRequest }>();
    return graphqlContext.req;
  }
  return context.switchToHttp().getRequest<AuthRequest>();
}

/** The signed-in user of an @Authenticated() operation (set by the AuthDecisionGuard). */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser => {
    const user = requestOf(context)?.user;
    if (!user) throw new Error('CurrentUser used on an operation that is not @Authenticated()');
    return user;
  },
);

/** The signed-in viewer of a @Public() operation, or null for an anonymous one. */
export const Viewer = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedUser | null =>
    requestOf(context)?.user ?? null,
);
