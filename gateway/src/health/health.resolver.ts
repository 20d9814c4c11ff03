import { Args, Int, Query, Resolver, Subscription } from '@nestjs/graphql';
import { setTimeout as sleep } from 'node:timers/promises';
import { Public } from '../auth/auth.decorators.js';
import { HealthService } from './health.service.js';
import { ServiceHealthModel } from './models/service-health.model.js';

@Resolver(() => ServiceHealthModel)
export class HealthResolver {
  constructor(private readonly healthService: HealthService) {}

  @Public()
  @Query(() => [ServiceHealthModel], { description: 'The status of each of the five services.' })
  health(): Promise<ServiceHealthModel[]> {
    return this.healthService.check();
  }

  @Public()
  @Subscription(() => [ServiceHealthModel], {
    description: 'The status of each service now, then again every intervalMs.',
  })
  async *serviceHealth(
    @Args('intervalMs', { type: () => Int, defaultValue: 2_000 }) intervalMs: number,
  ): AsyncGenerator<{ serviceHealth: ServiceHealthModel[] }> {
    const pause = Math.min(Math.max(intervalMs, 500), 60_000);
    for (;;) {
      yield { serviceHealth: await this.healthService.check() };
      await sleep(pause);
    }
  }
}
