import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Inject,
  Injectable,
  Optional,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AUTH_DECISION, type AuthDecision } from './auth.decorators.js';
import { requestOf } from './current-user.js';
import { bearerToken, InvalidTokenError, TokenVerifier } from './token-verifier.js';

/**
 * Fails closed: a resolver or route without an explicit auth decision is refused, so a
 * forgotten decorator can never expose an operation. (The ESLint rule
 * debate/resolver-auth-decision catches the same mistake before it runs.) An @Authenticated()
 * operation needs a valid access token of the realm; the user it names is put on the request.
 * A @Public() one is open to all; a valid token there names the viewer (an invalid one is
 * ignored: the viewer is then anonymous).
 */
@Injectable()
export class AuthDecisionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Optional() @Inject(TokenVerifier) private readonly verifier?: TokenVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const decision = this.reflector.getAllAndOverride<AuthDecision | undefined>(AUTH_DECISION, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (decision === 'public') {
      await this.identifyViewer(context);
      return true;
    }
    if (decision !== 'authenticated') {
      throw new ForbiddenException(
        `${context.getClass().name}.${context.getHandler().name} declares no auth decision`,
      );
    }
    const request = requestOf(context);
    const header = request?.headers['authorization'];
    const token = bearerToken(Array.isArray(header) ? header[0] : header);
    if (!request || !token || !this.verifier) throw new UnauthorizedException('Sign in required');
    try {
      request.user = await this.verifier.verify(token);
      return true;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw new UnauthorizedException(error.message);
      throw error;
    }
  }

  private async identifyViewer(context: ExecutionContext): Promise<void> {
    const request = requestOf(context);
    const header = request?.headers['authorization'];
    const token = bearerToken(Array.isArray(header) ? header[0] : header);
    if (!request || !token || !this.verifier) return;
    try {
      request.user = await this.verifier.verify(token);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
    }
  }
}
