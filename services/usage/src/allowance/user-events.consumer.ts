import { userCreatedEvent } from '@debate/contracts';
import { EventLog, PinoLoggerService } from '@debate/nest';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { AllowanceService } from './allowance.service.js';

/**
 * Sets up every new user the identity service announces with the free allowance, once, through
 * a durable consumer: a user created while this service is down gets it when it is back.
 */
@Injectable()
export class UserEventsConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly allowance: AllowanceService,
    private readonly events: EventLog,
    private readonly logger: PinoLoggerService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.events.subscribe(
      userCreatedEvent,
      'usage',
      (user) => this.allowance.initialise(user.userId, user.email, new Date(user.createdAt)),
      { onProblem: (message) => this.logger.warn(message) },
    );
  }
}
