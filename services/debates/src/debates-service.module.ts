import {
  serviceClientProvider,
  ServiceCoreModule,
  ServiceDataModule,
  type ServiceRuntimeOptions,
} from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { DebateOutboxService } from './debates/debate-outbox.service.js';
import { DebatesController } from './debates/debates.controller.js';
import { DebatesRepository } from './debates/debates.repository.js';
import { DebatesService } from './debates/debates.service.js';
import { KeptRunsRepository } from './debates/kept-runs.repository.js';

/** The debates service: the users' saved debates, private until shared (spec §3, §4). */
@Module({})
export class DebatesServiceModule {
  static register(options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: DebatesServiceModule,
      imports: [
        ServiceCoreModule.forService('debates', options),
        ServiceDataModule.forService('debates', options),
      ],
      controllers: [DebatesController],
      providers: [
        DebatesService,
        DebatesRepository,
        KeptRunsRepository,
        DebateOutboxService,
        serviceClientProvider(options.transport, 'debates'),
      ],
    };
  }
}
