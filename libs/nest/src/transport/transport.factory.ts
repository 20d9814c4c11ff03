import type { ServiceName } from '@debate/contracts';
import type { ClientNats, CustomStrategy } from '@nestjs/microservices';
import { InProcessBus } from './in-process-bus.js';
import { InProcessClient } from './in-process.client.js';
import { InProcessServer } from './in-process.server.js';
import {
  createNatsClient,
  createNatsServer,
  type NatsClientIdentity,
  type NatsSettings,
} from './nats.transport.js';

/** Which transport a deployable talks over. Only this differs between the two ways to run. */
export type TransportConfig =
  | (NatsSettings & {
      readonly kind: 'nats';
      /** How long a stopping server waits for the requests it took (default 10 s). */
      readonly drainTimeoutMs?: number;
      /**
       * How many servers hold each JetStream stream the event log creates or updates
       * (JETSTREAM_REPLICAS). Unset: a new stream gets the server's default (one) and an
       * existing one keeps its own.
       */
      readonly jetstreamReplicas?: number;
    })
  | { readonly kind: 'in-process'; readonly bus: InProcessBus };

export function natsTransport(
  url: string,
  options: Omit<Extract<TransportConfig, { kind: 'nats' }>, 'kind' | 'url'> = {},
): TransportConfig {
  return { kind: 'nats', url, ...options };
}

export function inProcessTransport(bus: InProcessBus = new InProcessBus()): TransportConfig {
  return { kind: 'in-process', bus };
}

/** The microservice options for a service: its own queue group, on the chosen transport. */
export function createServerStrategy(
  transport: TransportConfig,
  service: ServiceName,
): CustomStrategy {
  const strategy =
    transport.kind === 'nats'
      ? createNatsServer(transport, service, transport.drainTimeoutMs)
      : new InProcessServer(transport.bus, service);
  return { strategy };
}

/** The client of either transport; both are NestJS ClientProxy subclasses. */
export type TransportClient = ClientNats | InProcessClient;

/** A client for sending requests as `client` (on NATS, its identity), on the chosen transport. */
export function createClientProxy(
  transport: TransportConfig,
  client: NatsClientIdentity,
): TransportClient {
  return transport.kind === 'nats'
    ? createNatsClient(transport, client)
    : new InProcessClient(transport.bus);
}
