import {
  communityDebateContracts,
  debateSharedEvent,
  debateUnsharedEvent,
  type ParsedRequestOf,
  type ResponseOf,
} from '@debate/contracts';
import { EventLog, HandleRequest, PinoLoggerService } from '@debate/nest';
import { Controller, type OnApplicationBootstrap } from '@nestjs/common';
import { PublicDebatesRepository, toPublicDebate } from './public-debates.repository.js';

type Contracts = typeof communityDebateContracts;

/**
 * The community's public debates, fed by the debates service's events through a durable
 * consumer: a debate shared while this service is down appears when it is back.
 */
@Controller()
export class PublicDebatesController implements OnApplicationBootstrap {
  constructor(
    private readonly debates: PublicDebatesRepository,
    private readonly events: EventLog,
    private readonly logger: PinoLoggerService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const onProblem = (message: string) => this.logger.warn(message);
    await this.events.subscribe(
      debateSharedEvent,
      'community',
      ({ debate }) => this.debates.applyShared(debate),
      { onProblem },
    );
    await this.events.subscribe(
      debateUnsharedEvent,
      'community',
      ({ debateId, at }) => this.debates.applyUnshared(debateId, new Date(at)),
      { onProblem },
    );
  }

  @HandleRequest(communityDebateContracts.get)
  async get(request: ParsedRequestOf<Contracts['get']>): Promise<ResponseOf<Contracts['get']>> {
    const found = await this.debates.findPublic(request.debateId);
    return { debate: found ? toPublicDebate(found) : null };
  }
}
