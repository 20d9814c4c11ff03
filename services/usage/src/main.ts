import 'reflect-metadata';
import { runServiceProcess } from '@debate/nest';
import { UsageServiceModule } from './usage-service.module.js';

await runServiceProcess('usage', (options) => UsageServiceModule.register(options));
