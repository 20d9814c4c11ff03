import { debateSharedEvent, debateUnsharedEvent } from '@debate/contracts';
import { EventLog, PinoLoggerService } from '@debate/nest';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PublicDebatesService } from './public-debates.service.js';

/**
 * Keeps the public debates in step with the debates service's shared and unshared events,
 * through a durable consumer: a debate shared while this service is down appears when it is
 * back.
 */
@Injectable()
export class DebateEventsConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly publicDebates: PublicDebatesService,
    private readonly events: EventLog,
    private readonly logger: PinoLoggerService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const onProblem = (message: string) => this.logger.warn(message);
    await this.events.subscribe(
      debateSharedEvent,
      'community',
      ({ debate }) => this.publicDebates.applyShared(debate),
      { onProblem },
    );
    await this.events.subscribe(
      debateUnsharedEvent,
      'community',
      ({ debateId, at }) => this.publicDebates.applyUnshared(debateId, new Date(at)),
      { onProblem },
    );
  }
}
