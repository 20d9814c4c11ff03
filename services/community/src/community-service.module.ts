import { ServiceCoreModule, ServiceDataModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { CategoriesModule } from './categories/categories.module.js';
import { PublicDebatesController } from './public-debates/public-debates.controller.js';
import { PublicDebatesRepository } from './public-debates/public-debates.repository.js';
import { StarsRepository } from './stars/stars.repository.js';

/** The community service: the categories, and the public debates their ranking, votes and stars. */
@Module({})
export class CommunityServiceModule {
  static register(options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: CommunityServiceModule,
      imports: [
        ServiceCoreModule.forService('community', options),
        ServiceDataModule.forService('community', options),
        CategoriesModule,
      ],
      controllers: [PublicDebatesController],
      providers: [PublicDebatesRepository, StarsRepository],
    };
  }
}
