import type { ServiceName } from '@debate/contracts';
import {
  type DynamicModule,
  type INestMicroservice,
  Logger,
  type LoggerService,
  type Type,
} from '@nestjs/common';
import { ModuleRef, NestFactory } from '@nestjs/core';
import { PinoLoggerService } from '../logging/logging.module.js';
import type { CustomStrategy } from '@nestjs/microservices';
import type { Connection } from 'mongoose';
import { MONGO_CONNECTION } from '../mongo/mongo.js';
import {
  type OperationsServer,
  type ReadinessCheck,
  startOperationsServer,
} from '../operations/operations-server.js';
import { DrainingNatsServer } from '../transport/nats.transport.js';
import { createServerStrategy, type TransportConfig } from '../transport/transport.factory.js';

export interface StartServiceOptions {
  readonly service: ServiceName;
  readonly module: Type<unknown> | DynamicModule;
  readonly transport: TransportConfig;
  /**
   * The logger of NestJS's own messages. NestJS keeps it process-wide, so when several
   * applications share a process (single-process mode) the launcher passes one for all of them;
   * alone, a service uses its own (every line labelled with the service).
   */
  readonly frameworkLogger?: LoggerService;
}

const strategies = new WeakMap<INestMicroservice, CustomStrategy['strategy']>();

/** Creates a service as a NestJS microservice on the chosen transport and starts listening. */
export async function startService(options: StartServiceOptions): Promise<INestMicroservice> {
  const { frameworkLogger } = options;
  const strategy = createServerStrategy(options.transport, options.service);
  const app = await NestFactory.createMicroservice(options.module, {
    ...strategy,
    ...(frameworkLogger ? { logger: frameworkLogger } : { bufferLogs: true }),
  });
  strategies.set(app, strategy.strategy);
  let logger: LoggerService;
  if (frameworkLogger) {
    logger = frameworkLogger;
  } else {
    logger = app.get(PinoLoggerService);
    app.useLogger(logger);
  }
  // Its levels, for Logger.isLevelEnabled (otherwise true for any logger but NestJS's own).
  if (logger instanceof PinoLoggerService) Logger.overrideLogger(logger.nestLevels());
  await app.listen();
  return app;
}

/**
 * The operations port of a service started with `startService`: ready when its NATS
 * connection answers a ping and its database (if it has one) answers `ping`.
 */
export function serveServiceOperations(
  app: INestMicroservice,
  address: { port: number; host: string },
): Promise<OperationsServer> {
  const checks: Record<string, ReadinessCheck> = {};
  const strategy = strategies.get(app);
  if (strategy instanceof DrainingNatsServer) checks['nats'] = () => strategy.ping();
  const database = optionalProvider<Connection>(app, MONGO_CONNECTION);
  if (database) {
    checks['store'] = async () => {
      await database.db?.command({ ping: 1 });
      return true;
    };
  }
  return startOperationsServer({ ...address, checks });
}

/**
 * A provider the service may not have. (Through ModuleRef: the application's own `get` runs
 * in NestJS's exceptions zone, which ends the process on an unknown provider.)
 */
function optionalProvider<T>(app: INestMicroservice, token: symbol): T | undefined {
  try {
    return app.get(ModuleRef).get<T>(token, { strict: false });
  } catch {
    return undefined;
  }
}

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits: 0 when it finished cleanly,
 * 1 when it failed or took longer than `graceMs`.
 */
export function closeOnSignals(stop: () => Promise<unknown>, graceMs = 10_000): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => {
      process.stderr.write(`Shutdown after ${signal} took over ${graceMs} ms; exiting.\n`);
      process.exit(1);
    }, graceMs);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Shutdown after ${signal} failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
