import { ServiceCoreModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { CategoriesModule } from './categories/categories.module.js';

/** The community service: the categories today, public debates, votes and stars with #6. */
@Module({})
export class CommunityServiceModule {
  static register(options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: CommunityServiceModule,
      imports: [ServiceCoreModule.forService('community', options), CategoriesModule],
    };
  }
}
