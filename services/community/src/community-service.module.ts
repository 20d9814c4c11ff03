import { ServiceCoreModule, ServiceDataModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { LeaderboardController } from './leaderboard/leaderboard.controller.js';
import { LeaderboardEventsConsumer } from './leaderboard/leaderboard-events.consumer.js';
import { LeaderboardRepository } from './leaderboard/leaderboard.repository.js';
import { LeaderboardService } from './leaderboard/leaderboard.service.js';
import { DebateEventsConsumer } from './public-debates/debate-events.consumer.js';
import { PublicDebatesController } from './public-debates/public-debates.controller.js';
import { PublicDebatesRepository } from './public-debates/public-debates.repository.js';
import { PublicDebatesService } from './public-debates/public-debates.service.js';
import { StarsRepository } from './stars/stars.repository.js';

/** The community service: the public debates, their ranking, votes and stars, the leaderboard. */
@Module({})
export class CommunityServiceModule {
  static register(options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: CommunityServiceModule,
      imports: [
        ServiceCoreModule.forService('community', options),
        ServiceDataModule.forService('community', options),
      ],
      controllers: [PublicDebatesController, LeaderboardController],
      providers: [
        PublicDebatesService,
        PublicDebatesRepository,
        StarsRepository,
        DebateEventsConsumer,
        LeaderboardService,
        LeaderboardRepository,
        LeaderboardEventsConsumer,
      ],
    };
  }
}
