import {
  serviceClientProvider,
  ServiceCoreModule,
  ServiceDataModule,
  type ServiceRuntimeOptions,
} from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { DebateAnnouncer } from './debates/debate-announcer.js';
import { DebatesController } from './debates/debates.controller.js';
import { DebatesRepository } from './debates/debates.repository.js';

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
        DebatesRepository,
        DebateAnnouncer,
        serviceClientProvider(options.transport, 'debates'),
      ],
    };
  }
}
