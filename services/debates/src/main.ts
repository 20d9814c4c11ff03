import 'reflect-metadata';
import { runServiceProcess } from '@debate/nest';
import { DebatesServiceModule } from './debates-service.module.js';

await runServiceProcess('debates', (options) => DebatesServiceModule.register(options));
