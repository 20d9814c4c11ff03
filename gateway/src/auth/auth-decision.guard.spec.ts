import { describe, expect, it } from '@jest/globals';
import { ForbiddenException, type Type, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { AuthDecisionGuard } from './auth-decision.guard.js';
import { Authenticated, Public } from './auth.decorators.js';

class ExampleResolver {
  @Public()
  open(): string {
    return 'anyone';
  }

  @Authenticated()
  mine(): string {
    return 'signed in';
  }

  forgotten(): string {
    return 'nobody declared who may call this';
  }
}

@Public()
class PublicByClass {
  inherited(): string {
    return 'anyone';
  }
}

function contextFor<T>(type: Type<T>, method: keyof T & string) {
  const handler = type.prototype[method] as (...args: unknown[]) => unknown;
  return new ExecutionContextHost([], type, handler);
}

describe('AuthDecisionGuard', () => {
  const guard = new AuthDecisionGuard(new Reflector());

  it('lets anyone through a @Public() operation', async () => {
    await expect(guard.canActivate(contextFor(ExampleResolver, 'open'))).resolves.toBe(true);
    await expect(guard.canActivate(contextFor(PublicByClass, 'inherited'))).resolves.toBe(true);
  });

  it('asks for sign-in on an @Authenticated() operation when nobody is signed in', async () => {
    await expect(guard.canActivate(contextFor(ExampleResolver, 'mine'))).rejects.toThrow(
      UnauthorizedException,
    );
  });

  it('refuses an operation that declares no decision, naming it', async () => {
    await expect(guard.canActivate(contextFor(ExampleResolver, 'forgotten'))).rejects.toThrow(
      new ForbiddenException('ExampleResolver.forgotten declares no auth decision'),
    );
  });
});
