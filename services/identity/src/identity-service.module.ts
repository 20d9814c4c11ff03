import { ServiceCoreModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';

/** The identity service. Its features arrive with their issues; today it answers its health check. */
@Module({})
export class IdentityServiceModule {
  static register(options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: IdentityServiceModule,
      imports: [ServiceCoreModule.forService('identity', options)],
    };
  }
}
