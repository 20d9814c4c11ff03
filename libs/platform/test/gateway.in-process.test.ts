import { inProcessTransport } from '@debate/nest';
import { startPlatform } from '../src/start-platform.js';
import { describeGateway } from './gateway-suite.js';

describeGateway('in-process', async () => {
  const platform = await startPlatform({
    transport: inProcessTransport(),
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
  });
  return { platform, teardown: () => platform.stop() };
});
