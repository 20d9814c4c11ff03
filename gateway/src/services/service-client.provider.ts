import { createClientProxy, ServiceClient, type TransportConfig } from '@debate/nest';
import type { FactoryProvider, OnApplicationShutdown } from '@nestjs/common';

export const TRANSPORT_CLIENT = Symbol('TRANSPORT_CLIENT');

/** Closes the transport client when the gateway stops. */
class ClosingServiceClient extends ServiceClient implements OnApplicationShutdown {
  constructor(
    private readonly close: () => Promise<unknown>,
    ...args: ConstructorParameters<typeof ServiceClient>
  ) {
    super(...args);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}

/** One transport client for the whole gateway; the services are reached through it. */
export function serviceClientProvider(
  transport: TransportConfig,
  timeoutMs: number,
): FactoryProvider<ServiceClient> {
  return {
    provide: ServiceClient,
    useFactory: async () => {
      const proxy = createClientProxy(transport, 'gateway');
      await proxy.connect();
      return new ClosingServiceClient(() => proxy.close(), proxy, timeoutMs);
    },
  };
}
