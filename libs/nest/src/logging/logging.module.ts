import { traceFields } from '../tracing/tracing.js';
import {
  type DynamicModule,
  type LoggerService,
  type LogLevel as NestLogLevel,
  Module,
} from '@nestjs/common';
import { pino, type Logger, type LevelWithSilent } from 'pino';

export type LogLevel = Extract<
  LevelWithSilent,
  'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
>;

/**
 * NestJS's logger interface over one pino instance. Each application gets its own, so that in
 * single-process mode every line still names the deployable that wrote it (a process-wide root
 * logger, as nestjs-pino keeps, would label them all with whichever app started last).
 */
export class PinoLoggerService implements LoggerService {
  constructor(readonly pino: Logger) {}

  /**
   * The NestJS levels this logger writes. Given to NestJS (`Logger.overrideLogger`), they let
   * `Logger.isLevelEnabled` answer for it, so that a line nobody will read is not built.
   */
  nestLevels(): NestLogLevel[] {
    const levels: Array<[NestLogLevel, Exclude<LogLevel, 'silent'>]> = [
      ['verbose', 'trace'],
      ['debug', 'debug'],
      ['log', 'info'],
      ['warn', 'warn'],
      ['error', 'error'],
      ['fatal', 'fatal'],
    ];
    return levels.filter(([, level]) => this.pino.isLevelEnabled(level)).map(([nest]) => nest);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes the context last, and for errors a stack trace before it. */
  private write(level: Exclude<LogLevel, 'silent'>, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const rest = [...params];
    const context = rest.length > 0 && typeof rest.at(-1) === 'string' ? rest.pop() : undefined;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (level === 'error' && typeof rest[0] === 'string') fields['stack'] = rest.shift();
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'string') {
      this.pino[level](fields, message);
    } else {
      this.pino[level]({ ...fields, data: message }, '');
    }
  }
}

export function createLogger(deployable: string, level: LogLevel): Logger {
  // Every line written inside a traced call carries its trace_id and span_id.
  return pino({ level, base: { service: deployable }, mixin: traceFields });
}

/** JSON logs through pino, every line carrying the name of the deployable that wrote it. */
@Module({})
export class LoggingModule {
  /** `logger`: the deployable's logger when it is made beforehand (createLogger). */
  static forDeployable(
    name: string,
    level: LogLevel,
    logger: Logger = createLogger(name, level),
  ): DynamicModule {
    return {
      module: LoggingModule,
      providers: [{ provide: PinoLoggerService, useValue: new PinoLoggerService(logger) }],
      exports: [PinoLoggerService],
    };
  }
}
