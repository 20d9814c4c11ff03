import { CommunityServiceModule } from '@debate/community-service';
import type { ServiceName } from '@debate/contracts';
import { DebatesServiceModule } from '@debate/debates-service';
import { GenerationServiceModule } from '@debate/generation-service';
import { IdentityServiceModule } from '@debate/identity-service';
import type { ServiceRuntimeOptions } from '@debate/nest';
import { UsageServiceModule } from '@debate/usage-service';
import type { DynamicModule } from '@nestjs/common';

/** How each of the five services builds its root module. */
export const serviceModules: Record<
  ServiceName,
  (options: ServiceRuntimeOptions) => DynamicModule
> = {
  identity: (options) => IdentityServiceModule.register(options),
  usage: (options) => UsageServiceModule.register(options),
  generation: (options) => GenerationServiceModule.register(options),
  debates: (options) => DebatesServiceModule.register(options),
  community: (options) => CommunityServiceModule.register(options),
};
