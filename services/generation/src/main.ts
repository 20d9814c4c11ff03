import 'reflect-metadata';
import { runServiceProcess } from '@debate/nest';
import { GenerationServiceModule } from './generation-service.module.js';

await runServiceProcess('generation', (options) => GenerationServiceModule.register(options));
