import type { OnModuleDestroy } from '@nestjs/common';
import { Args, Int, Query, Resolver, Subscription } from '@nestjs/graphql';
import { Public } from '../auth/auth.decorators.js';
import { pollEvery } from '../common/poll.js';
import { HealthService } from './health.service.js';
import { ServiceHealthModel } from './models/service-health.model.js';

@Resolver(() => ServiceHealthModel)
export class HealthResolver implements OnModuleDestroy {
  /** Ends every open subscription when the gateway closes. */
  private readonly shutdown = new AbortController();

  constructor(private readonly healthService: HealthService) {}

  onModuleDestroy(): void {
    this.shutdown.abort();
  }

  @Public()
  @Query(() => [ServiceHealthModel], { description: 'The status of each of the five services.' })
  health(): Promise<ServiceHealthModel[]> {
    return this.healthService.check();
  }

  @Public()
  @Subscription(() => [ServiceHealthModel], {
    description: 'The status of each service now, then again every intervalMs.',
  })
  serviceHealth(
    @Args('intervalMs', { type: () => Int, defaultValue: 2_000 }) intervalMs: number,
  ): AsyncIterableIterator<{ serviceHealth: ServiceHealthModel[] }> {
    const pause = Math.min(Math.max(intervalMs, 500), 60_000);
    return pollEvery(
      pause,
      async () => ({ serviceHealth: await this.healthService.check() }),
      this.shutdown.signal,
    );
  }
}
