import { natsTransport } from '@debate/nest';
import { startNatsServer } from '@debate/nest/testing';
import { startPlatform } from '../src/start-platform.js';
import { describeGateway } from './gateway-suite.js';

// Each service and the gateway is its own NestJS application with its own NATS connection.
describeGateway('NATS', async () => {
  const nats = await startNatsServer();
  const platform = await startPlatform({
    transport: natsTransport(nats.url),
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
  });
  return {
    platform,
    teardown: async () => {
      await platform.stop();
      await nats.stop();
    },
  };
});
