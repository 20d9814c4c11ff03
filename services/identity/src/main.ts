import 'reflect-metadata';
import { runServiceProcess } from '@debate/nest';
import { IdentityServiceModule } from './identity-service.module.js';

await runServiceProcess('identity', (options) => IdentityServiceModule.register(options));
