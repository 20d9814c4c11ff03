import type { ServiceName } from '@debate/contracts';
import type { DynamicModule, INestMicroservice, LoggerService, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PinoLoggerService } from '../logging/logging.module.js';
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

/** Creates a service as a NestJS microservice on the chosen transport and starts listening. */
export async function startService(options: StartServiceOptions): Promise<INestMicroservice> {
  const { frameworkLogger } = options;
  const app = await NestFactory.createMicroservice(options.module, {
    ...createServerStrategy(options.transport, options.service),
    ...(frameworkLogger ? { logger: frameworkLogger } : { bufferLogs: true }),
  });
  if (!frameworkLogger) app.useLogger(app.get(PinoLoggerService));
  await app.listen();
  return app;
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
