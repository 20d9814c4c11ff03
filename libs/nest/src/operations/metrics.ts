import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per process, with Node's default metrics (event-loop lag, memory,
 * GC). In single-process mode every service and the gateway share it; the `service` label
 * tells them apart.
 */
let registry: Registry | undefined;
export function processRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  }
  return registry;
}

const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

let natsMetrics: { requests: Counter<string>; duration: Histogram<string> } | undefined;

/** The count, outcome and duration of every request a service handles, per NATS subject. */
export function natsRequestMetrics() {
  natsMetrics ??= {
    requests: new Counter({
      name: 'nats_requests_total',
      help: 'Requests handled, per service, NATS subject and outcome (ok, error, invalid).',
      labelNames: ['service', 'subject', 'outcome'],
      registers: [processRegistry()],
    }),
    duration: new Histogram({
      name: 'nats_request_duration_seconds',
      help: 'How long handling a request took, per service and NATS subject.',
      labelNames: ['service', 'subject'],
      buckets,
      registers: [processRegistry()],
    }),
  };
  return natsMetrics;
}

let graphqlMetrics: { operations: Counter<string>; duration: Histogram<string> } | undefined;

/** The count, outcome and duration of every GraphQL operation the gateway answers. */
export function graphqlOperationMetrics() {
  graphqlMetrics ??= {
    operations: new Counter({
      name: 'graphql_operations_total',
      help: 'GraphQL root fields resolved, per operation and outcome (ok, error).',
      labelNames: ['operation', 'outcome'],
      registers: [processRegistry()],
    }),
    duration: new Histogram({
      name: 'graphql_operation_duration_seconds',
      help: 'How long resolving a GraphQL root field took, per operation.',
      labelNames: ['operation'],
      buckets,
      registers: [processRegistry()],
    }),
  };
  return graphqlMetrics;
}
