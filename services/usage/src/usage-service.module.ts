import { ServiceCoreModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';

/** The usage service. Its features arrive with their issues; today it answers its health check. */
@Module({})
export class UsageServiceModule {
  static register(options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: UsageServiceModule,
      imports: [ServiceCoreModule.forService('usage', options)],
    };
  }
}
