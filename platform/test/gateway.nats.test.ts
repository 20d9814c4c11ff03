import { describeGateway } from './gateway-suite.js';
import { startTestPlatformOverNats } from './test-platform.js';

// Each service and the gateway is its own NestJS application with its own NATS connection.
describeGateway('NATS', () => startTestPlatformOverNats());
