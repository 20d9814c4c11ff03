import { natsTransport } from '@debate/nest';
import { startNatsServer } from '@debate/nest/testing';
import { describeGateway } from './gateway-suite.js';
import { startTestPlatform } from './test-platform.js';

// Each service and the gateway is its own NestJS application with its own NATS connection.
describeGateway('NATS', async () => {
  const nats = await startNatsServer();
  const { platform, teardown } = await startTestPlatform(natsTransport(nats.url));
  return {
    platform,
    teardown: async () => {
      await teardown();
      await nats.stop();
    },
  };
});
