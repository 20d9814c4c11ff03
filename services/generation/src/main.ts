import 'reflect-metadata';
import { loadConfigOrExit, runServiceProcess } from '@debate/nest';
import { generationEnvSchema } from './generation.config.js';
import { GenerationServiceModule } from './generation-service.module.js';

const env = loadConfigOrExit('the generation service', generationEnvSchema);
await runServiceProcess('generation', (options) =>
  GenerationServiceModule.register({ ...options, speakers: env }),
);
