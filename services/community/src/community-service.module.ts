import { ServiceCoreModule, ServiceDataModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { DebateEventsConsumer } from './public-debates/debate-events.consumer.js';
import { PublicDebatesController } from './public-debates/public-debates.controller.js';
import { PublicDebatesRepository } from './public-debates/public-debates.repository.js';
import { PublicDebatesService } from './public-debates/public-debates.service.js';
import { StarsRepository } from './stars/stars.repository.js';

/** The community service: the public debates, their ranking, votes and stars. */
@Module({})
export class CommunityServiceModule {
  static register(options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: CommunityServiceModule,
      imports: [
        ServiceCoreModule.forService('community', options),
        ServiceDataModule.forService('community', options),
      ],
      controllers: [PublicDebatesController],
      providers: [
        PublicDebatesService,
        PublicDebatesRepository,
        StarsRepository,
        DebateEventsConsumer,
      ],
    };
  }
}
