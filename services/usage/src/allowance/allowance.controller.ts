import { type ParsedRequestOf, type ResponseOf, usageContracts } from '@debate/contracts';
import { HandleRequest } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { AllowanceService } from './allowance.service.js';

type Contracts = typeof usageContracts;

/** The usage service's requests: the allowance, its use and the statistics. */
@Controller()
export class AllowanceController {
  constructor(private readonly allowance: AllowanceService) {}

  @HandleRequest(usageContracts.stats)
  stats(request: ParsedRequestOf<Contracts['stats']>): Promise<ResponseOf<Contracts['stats']>> {
    return this.allowance.stats(request);
  }

  @HandleRequest(usageContracts.consume)
  consume(
    request: ParsedRequestOf<Contracts['consume']>,
  ): Promise<ResponseOf<Contracts['consume']>> {
    return this.allowance.consume(request, request.runId);
  }

  @HandleRequest(usageContracts.refund)
  async refund(
    request: ParsedRequestOf<Contracts['refund']>,
  ): Promise<ResponseOf<Contracts['refund']>> {
    const { userId, runId, tokensIn, tokensOut } = request;
    return { refunded: await this.allowance.refund(userId, runId, { tokensIn, tokensOut }) };
  }

  @HandleRequest(usageContracts.settle)
  async settle(
    request: ParsedRequestOf<Contracts['settle']>,
  ): Promise<ResponseOf<Contracts['settle']>> {
    const { userId, runId, tokensIn, tokensOut } = request;
    return { settled: await this.allowance.settle(userId, runId, { tokensIn, tokensOut }) };
  }

  @HandleRequest(usageContracts.lastRun)
  async lastRun(
    request: ParsedRequestOf<Contracts['lastRun']>,
  ): Promise<ResponseOf<Contracts['lastRun']>> {
    return { runId: await this.allowance.lastRun(request.userId) };
  }
}
