import { Controller, Get, Header } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { Public } from '../auth/auth.decorators.js';

/** One registry per process, with Node's default metrics (event-loop lag, memory, GC). */
let registry: Registry | undefined;
function processRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  }
  return registry;
}

/**
 * GET /metrics in Prometheus's text format: the process's event-loop lag (p50/p90/p99 since the
 * previous scrape), resident memory and the rest of prom-client's defaults. In single-process
 * mode that is the whole platform.
 */
@Controller('metrics')
export class MetricsController {
  private readonly registry = processRegistry();

  @Public()
  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
