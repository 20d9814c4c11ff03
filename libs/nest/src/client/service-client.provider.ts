import type { NatsDeployable } from '@debate/contracts';
import type { FactoryProvider } from '@nestjs/common';
import { createClientProxy, type TransportConfig } from '../transport/transport.factory.js';
import { ServiceClient } from './service-client.js';

/**
 * One transport client per application, connected before the application serves; it closes
 * with the application (ServiceClient implements OnApplicationShutdown).
 */
export function serviceClientProvider(
  transport: TransportConfig,
  deployable: NatsDeployable,
  timeoutMs?: number,
): FactoryProvider<ServiceClient> {
  return {
    provide: ServiceClient,
    useFactory: async () => {
      const proxy = createClientProxy(transport, deployable);
      await proxy.connect();
      return new ServiceClient(proxy, timeoutMs);
    },
  };
}
