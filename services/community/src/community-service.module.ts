import { ServiceCoreModule, ServiceDataModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { LeaderboardController } from './leaderboard/leaderboard.controller.js';
import { LeaderboardEventsConsumer } from './leaderboard/leaderboard-events.consumer.js';
import { LeaderboardRepository } from './leaderboard/leaderboard.repository.js';
import { PeopleListingsRepository } from './leaderboard/people-listings.repository.js';
import { LEADERBOARD_DAILY_LIMIT, LeaderboardService } from './leaderboard/leaderboard.service.js';
import { DEFAULT_LEADERBOARD_DAILY_LIMIT } from './community.config.js';
import { JudgesController } from './judges/judges.controller.js';
import { JudgesRepository } from './judges/judges.repository.js';
import { JudgesService } from './judges/judges.service.js';
import { DebateEventsConsumer } from './public-debates/debate-events.consumer.js';
import { PublicDebatesController } from './public-debates/public-debates.controller.js';
import { PublicDebatesRepository } from './public-debates/public-debates.repository.js';
import { PublicDebatesService } from './public-debates/public-debates.service.js';
import { SidesWordsCounter } from './public-debates/sides-words.js';
import { StarsController } from './stars/stars.controller.js';
import { StarsRepository } from './stars/stars.repository.js';
import { StarsService } from './stars/stars.service.js';
import { CLOCK, type Clock, ViewsRepository } from './views/views.repository.js';
import { VotesController } from './votes/votes.controller.js';
import { VotesRepository } from './votes/votes.repository.js';
import { VotesService } from './votes/votes.service.js';

export interface CommunityServiceOptions extends ServiceRuntimeOptions {
  /**
   * How many debates of one author and pairing shared on one UTC day the leaderboard rates:
   * LEADERBOARD_DAILY_LIMIT, 4 by default.
   */
  readonly leaderboardDailyLimit?: number | undefined;
  /** The clock the views' days are read on; the server's by default. */
  readonly clock?: Clock | undefined;
}

/**
 * The community service: the public debates, their ranking, votes and stars, the leaderboard and
 * the judges' record.
 */
@Module({})
export class CommunityServiceModule {
  static register(options: CommunityServiceOptions): DynamicModule {
    return {
      module: CommunityServiceModule,
      imports: [
        ServiceCoreModule.forService('community', options),
        ServiceDataModule.forService('community', options),
      ],
      controllers: [
        PublicDebatesController,
        VotesController,
        StarsController,
        LeaderboardController,
        JudgesController,
      ],
      providers: [
        PublicDebatesService,
        PublicDebatesRepository,
        VotesService,
        VotesRepository,
        StarsService,
        StarsRepository,
        ViewsRepository,
        { provide: CLOCK, useValue: options.clock ?? (() => new Date()) },
        DebateEventsConsumer,
        LeaderboardService,
        LeaderboardRepository,
        PeopleListingsRepository,
        LeaderboardEventsConsumer,
        JudgesService,
        JudgesRepository,
        SidesWordsCounter,
        {
          provide: LEADERBOARD_DAILY_LIMIT,
          useValue: options.leaderboardDailyLimit ?? DEFAULT_LEADERBOARD_DAILY_LIMIT,
        },
      ],
    };
  }
}
