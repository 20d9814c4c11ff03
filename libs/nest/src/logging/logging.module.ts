import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** JSON logs through pino, every line carrying the name of the deployable that wrote it. */
@Module({})
export class LoggingModule {
  static forDeployable(name: string, level: LogLevel): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level,
            base: { service: name },
            // Probes and static files would drown the log: only GraphQL and errors are logged.
            autoLogging: false,
          },
        }),
      ],
      exports: [LoggerModule],
    };
  }
}
