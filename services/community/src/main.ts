import 'reflect-metadata';
import { runServiceProcess } from '@debate/nest';
import { CommunityServiceModule } from './community-service.module.js';

await runServiceProcess('community', (options) => CommunityServiceModule.register(options));
