import type { ServiceName } from '@debate/contracts';
import { type DynamicModule, Module } from '@nestjs/common';
import { createHealthController } from '../health/health.controller.js';
import { type LogLevel, LoggingModule } from '../logging/logging.module.js';

export interface ServiceRuntimeOptions {
  readonly logLevel: LogLevel;
}

/** What every service has: JSON logging and an answer to its health check. */
@Module({})
export class ServiceCoreModule {
  static forService(service: ServiceName, options: ServiceRuntimeOptions): DynamicModule {
    return {
      module: ServiceCoreModule,
      imports: [LoggingModule.forDeployable(service, options.logLevel)],
      controllers: [createHealthController(service)],
      exports: [LoggingModule],
    };
  }
}
