import {
  type ParsedRequestOf,
  type ResponseOf,
  usageContracts,
  userCreatedEvent,
} from '@debate/contracts';
import { EventLog, HandleRequest, PinoLoggerService } from '@debate/nest';
import { Controller, type OnApplicationBootstrap } from '@nestjs/common';
import { UsageLedger } from './ledger.js';

type Contracts = typeof usageContracts;

/** The usage service's requests, and the new users it sets up from the identity service. */
@Controller()
export class AllowanceController implements OnApplicationBootstrap {
  constructor(
    private readonly ledger: UsageLedger,
    private readonly events: EventLog,
    private readonly logger: PinoLoggerService,
  ) {}

  /** Every new user gets the free allowance, once, even if the service was down meanwhile. */
  async onApplicationBootstrap(): Promise<void> {
    await this.events.subscribe(
      userCreatedEvent,
      'usage',
      (user) => this.ledger.initialise(user.userId, user.email, new Date(user.createdAt)),
      { onProblem: (message) => this.logger.warn(message) },
    );
  }

  @HandleRequest(usageContracts.stats)
  stats(request: ParsedRequestOf<Contracts['stats']>): Promise<ResponseOf<Contracts['stats']>> {
    return this.ledger.stats(request.userId, request.email);
  }

  @HandleRequest(usageContracts.consume)
  consume(
    request: ParsedRequestOf<Contracts['consume']>,
  ): Promise<ResponseOf<Contracts['consume']>> {
    return this.ledger.consume(request.userId, request.email, request.runId);
  }

  @HandleRequest(usageContracts.refund)
  async refund(
    request: ParsedRequestOf<Contracts['refund']>,
  ): Promise<ResponseOf<Contracts['refund']>> {
    return { refunded: await this.ledger.refund(request.userId, request.runId) };
  }

  @HandleRequest(usageContracts.settle)
  async settle(
    request: ParsedRequestOf<Contracts['settle']>,
  ): Promise<ResponseOf<Contracts['settle']>> {
    return { settled: await this.ledger.settle(request.userId, request.runId) };
  }
}
