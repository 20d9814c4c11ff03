import { type CommunityServiceOptions, CommunityServiceModule } from '@debate/community-service';
import type { ServiceName } from '@debate/contracts';
import { DebatesServiceModule } from '@debate/debates-service';
import { type GenerationServiceOptions, GenerationServiceModule } from '@debate/generation-service';
import { type IdentityServiceOptions, IdentityServiceModule } from '@debate/identity-service';
import { type UsageServiceOptions, UsageServiceModule } from '@debate/usage-service';
import type { DynamicModule } from '@nestjs/common';

/** What the services of one process are started with (the identity service also needs its realm). */
export type PlatformServiceOptions = IdentityServiceOptions &
  UsageServiceOptions &
  GenerationServiceOptions &
  CommunityServiceOptions;

/** The root module of each of the five services. */
export function serviceModules(
  options: PlatformServiceOptions,
): Record<ServiceName, DynamicModule> {
  return {
    identity: IdentityServiceModule.register(options),
    usage: UsageServiceModule.register(options),
    generation: GenerationServiceModule.register(options),
    debates: DebatesServiceModule.register(options),
    community: CommunityServiceModule.register(options),
  };
}
