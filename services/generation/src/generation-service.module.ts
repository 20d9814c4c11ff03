import { ServiceCoreModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { CatalogModule } from './catalog/catalog.module.js';

/** The generation service: the debate settings catalog today, the AI speakers with #5. */
@Module({})
export class GenerationServiceModule {
  static register(options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: GenerationServiceModule,
      imports: [ServiceCoreModule.forService('generation', options), CatalogModule],
    };
  }
}
