import { type ParsedRequestOf, type ResponseOf, usageContracts } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller, type DynamicModule, Module } from '@nestjs/common';

type Consume = typeof usageContracts.consume;
type Refusal = Extract<ResponseOf<Consume>, { granted: false }>['reason'];

/** What the generation service asked the usage service, in order. */
export interface UsageCall {
  readonly kind: 'consume' | 'settle' | 'refund';
  readonly userId: string;
  readonly runId: string;
  /** The run's tokens, on settle and refund. */
  readonly tokens?: { readonly tokensIn: number; readonly tokensOut: number };
}

/** The usage service as the generation service meets it: it grants, or refuses as told. */
export class UsageStandIn {
  readonly calls: UsageCall[] = [];
  /** The reason the next consumes are refused for; none: they are granted. */
  refusal: Refusal | undefined;

  callsFor(runId: string): Array<UsageCall['kind']> {
    return this.calls.filter((call) => call.runId === runId).map((call) => call.kind);
  }

  /** A module answering the usage contracts as this stand-in says. */
  module(): DynamicModule {
    return { module: UsageStandInModule, controllers: [controllerOf(this)] };
  }
}

function controllerOf(usage: UsageStandIn) {
  @Controller()
  class UsageStandInController {
    @HandleRequest(usageContracts.consume)
    consume(request: ParsedRequestOf<Consume>): ResponseOf<Consume> {
      usage.calls.push({ kind: 'consume', userId: request.userId, runId: request.runId });
      return usage.refusal
        ? { granted: false, reason: usage.refusal, freeDebatesRemaining: 0 }
        : { granted: true, freeDebatesRemaining: 1 };
    }

    @HandleRequest(usageContracts.settle)
    settle(
      request: ParsedRequestOf<typeof usageContracts.settle>,
    ): ResponseOf<typeof usageContracts.settle> {
      const { userId, runId, tokensIn, tokensOut } = request;
      usage.calls.push({ kind: 'settle', userId, runId, tokens: { tokensIn, tokensOut } });
      return { settled: true };
    }

    @HandleRequest(usageContracts.refund)
    refund(
      request: ParsedRequestOf<typeof usageContracts.refund>,
    ): ResponseOf<typeof usageContracts.refund> {
      const { userId, runId, tokensIn, tokensOut } = request;
      usage.calls.push({ kind: 'refund', userId, runId, tokens: { tokensIn, tokensOut } });
      return { refunded: true };
    }
  }
  return UsageStandInController;
}

@Module({})
class UsageStandInModule {}
