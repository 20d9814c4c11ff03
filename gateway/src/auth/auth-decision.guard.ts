import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AUTH_DECISION, type AuthDecision } from './auth.decorators.js';

/**
 * Fails closed: a resolver or route without an explicit auth decision is refused, so a
 * forgotten decorator can never expose an operation. (The ESLint rule
 * debate/resolver-auth-decision catches the same mistake before it runs.)
 */
@Injectable()
export class AuthDecisionGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const decision = this.reflector.getAllAndOverride<AuthDecision | undefined>(AUTH_DECISION, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (decision === 'public') return true;
    if (decision === 'authenticated') {
      // Sign-in arrives with the identity service; until then nobody is signed in.
      throw new UnauthorizedException('Sign in required');
    }
    throw new ForbiddenException(
      `${context.getClass().name}.${context.getHandler().name} declares no auth decision`,
    );
  }
}
