import { ServiceCoreModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';

/** The debates service. Its features arrive with their issues; today it answers its health check. */
@Module({})
export class DebatesServiceModule {
  static register(options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: DebatesServiceModule,
      imports: [ServiceCoreModule.forService('debates', options)],
    };
  }
}
