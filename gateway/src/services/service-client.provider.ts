import { createClientProxy, ServiceClient, type TransportConfig } from '@debate/nest';
import type { FactoryProvider } from '@nestjs/common';

/**
 * One transport client for the whole gateway; the services are reached through it, and it
 * closes with the gateway (ServiceClient implements OnApplicationShutdown).
 */
export function serviceClientProvider(
  transport: TransportConfig,
  timeoutMs: number,
): FactoryProvider<ServiceClient> {
  return {
    provide: ServiceClient,
    useFactory: async () => {
      const proxy = createClientProxy(transport, 'gateway');
      await proxy.connect();
      return new ServiceClient(proxy, timeoutMs);
    },
  };
}
