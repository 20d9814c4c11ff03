import type { ServiceName } from '@debate/contracts';
import type { DynamicModule } from '@nestjs/common';
import {
  loadConfigOrExit,
  natsSettingsOf,
  type ServiceEnv,
  serviceEnvSchema,
  serviceMongoUrl,
} from '../config/load-config.js';
import { startTracing, stopTracing } from '../tracing/tracing.js';
import { natsTransport, type TransportConfig } from '../transport/transport.factory.js';
import type { ServiceRuntimeOptions } from './service-core.module.js';
import { tuneRuntime } from './runtime.js';
import { closeOnSignals, serveServiceOperations, startService } from './start-service.js';

/**
 * The NATS transport of a service run on its own, as its environment sets it: the server, the
 * service's NATS user and the CA it trusts, how long a stopping service waits for its requests,
 * and how many servers hold its streams.
 */
export function serviceTransport(env: ServiceEnv, service: ServiceName): TransportConfig {
  const { url, ...identity } = natsSettingsOf(env, service);
  return natsTransport(url, {
    ...identity,
    drainTimeoutMs: env.DRAIN_TIMEOUT_MS,
    jetstreamReplicas: env.JETSTREAM_REPLICAS,
  });
}

/**
 * The entry point of a service run on its own: validates the environment, connects to NATS,
 * serves its operations port (OPS_PORT: health probes, /metrics), and drains on SIGTERM. A bad
 * environment ends the process with one message naming every bad variable.
 */
export async function runServiceProcess(
  service: ServiceName,
  register: (options: ServiceRuntimeOptions) => DynamicModule,
): Promise<void> {
  tuneRuntime();
  const env = loadConfigOrExit(`the ${service} service`, serviceEnvSchema);
  startTracing(service);
  const drainTimeoutMs = env.DRAIN_TIMEOUT_MS;
  const transport = serviceTransport(env, service);
  const app = await startService({
    service,
    module: register({
      logLevel: env.LOG_LEVEL,
      transport,
      mongoUrl: serviceMongoUrl(env),
      drainTimeoutMs,
    }),
    transport,
  });
  const operations = await serveServiceOperations(app, { port: env.OPS_PORT, host: env.OPS_HOST });
  // The requests taken, then (generation) the runs going on: each waits up to DRAIN_TIMEOUT_MS.
  closeOnSignals(
    async () => {
      await app.close();
      await operations.close();
      await stopTracing();
    },
    2 * drainTimeoutMs + 5_000,
  );
}
