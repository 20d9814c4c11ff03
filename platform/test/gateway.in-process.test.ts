import { inProcessTransport } from '@debate/nest';
import { describeGateway } from './gateway-suite.js';
import { startTestPlatform } from './test-platform.js';

describeGateway('in-process', () => startTestPlatform(inProcessTransport()));
