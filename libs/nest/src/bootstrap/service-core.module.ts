import type { ServiceName } from '@debate/contracts';
import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Connection } from 'mongoose';
import { createEventLog, EventLog } from '../events/event-log.js';
import { type LogLevel, LoggingModule } from '../logging/logging.module.js';
import { MONGO_CONNECTION, openServiceDatabase } from '../mongo/mongo.js';
import type { TransportConfig } from '../transport/transport.factory.js';

export interface ServiceRuntimeOptions {
  readonly logLevel: LogLevel;
  /** What the service talks over; its event log follows (JetStream on NATS). */
  readonly transport: TransportConfig;
  /** The MongoDB server; a service that keeps documents uses a database of its own there. */
  readonly mongoUrl: string;
  /** On shutdown, how long to wait for work in progress (DRAIN_TIMEOUT_MS; default 10 s). */
  readonly drainTimeoutMs?: number;
}

/** What every service has: JSON logging, every line naming the service. */
@Module({})
export class ServiceCoreModule {
  static forService(
    service: ServiceName,
    options: Pick<ServiceRuntimeOptions, 'logLevel'>,
  ): DynamicModule {
    return {
      module: ServiceCoreModule,
      imports: [LoggingModule.forDeployable(service, options.logLevel)],
      exports: [LoggingModule],
    };
  }
}

/**
 * What a service that keeps documents and publishes facts has: its own database
 * (MONGO_CONNECTION, named after the service) and its event log, both closed when it stops.
 */
@Module({})
export class ServiceDataModule implements OnApplicationShutdown {
  constructor(
    @Inject(MONGO_CONNECTION) private readonly connection: Connection,
    @Inject(EventLog) private readonly events: EventLog,
  ) {}

  static forService(
    service: ServiceName,
    options: Pick<ServiceRuntimeOptions, 'transport' | 'mongoUrl'>,
  ): DynamicModule {
    return {
      module: ServiceDataModule,
      global: true,
      providers: [
        {
          provide: MONGO_CONNECTION,
          useFactory: () => openServiceDatabase(options.mongoUrl, service),
        },
        { provide: EventLog, useFactory: () => createEventLog(options.transport, service) },
      ],
      exports: [MONGO_CONNECTION, EventLog],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.events.close();
    await this.connection.close();
  }
}
