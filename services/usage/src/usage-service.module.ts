import { ServiceCoreModule, ServiceDataModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { AllowanceController } from './allowance/allowance.controller.js';
import { UserEventsConsumer } from './allowance/user-events.consumer.js';
import { AllowanceService } from './allowance/allowance.service.js';
import {
  ABANDONED_RUN_AFTER_MS,
  CLOCK,
  type Clock,
  type TestAccount,
  STARTS_PER_MINUTE,
  TEST_ACCOUNT,
  usageRules,
} from './allowance/usage-rules.js';
import { UsageRepository } from './allowance/usage.repository.js';

export interface UsageServiceOptions extends ServiceRuntimeOptions {
  /**
   * The designated test account with a daily 100, by its address once verified
   * (USAGE_TEST_ACCOUNT_EMAIL) or by its user id (USAGE_TEST_ACCOUNT_ID).
   */
  readonly testAccountEmail?: string | undefined;
  readonly testAccountId?: string | undefined;
  /**
   * How long a run may stay open before its debate is given back (its generation instance
   * stopped without settling it): USAGE_ABANDONED_RUN_MS, an hour by default.
   */
  readonly abandonedRunAfterMs?: number | undefined;
  /** How many debates one user may start in any minute: USAGE_STARTS_PER_MINUTE, 5 by default. */
  readonly startsPerMinute?: number | undefined;
  /** The clock the rules read; the server's by default. */
  readonly clock?: Clock;
}

/** The usage service: the free-debate allowance (spec §4). */
@Module({})
export class UsageServiceModule {
  static register(options: UsageServiceOptions): DynamicModule {
    return {
      module: UsageServiceModule,
      imports: [
        ServiceCoreModule.forService('usage', options),
        ServiceDataModule.forService('usage', options),
      ],
      controllers: [AllowanceController],
      providers: [
        AllowanceService,
        UsageRepository,
        UserEventsConsumer,
        { provide: CLOCK, useValue: options.clock ?? (() => new Date()) },
        {
          provide: TEST_ACCOUNT,
          useValue: {
            email: options.testAccountEmail?.trim().toLowerCase() || null,
            userId: options.testAccountId?.trim() || null,
          } satisfies TestAccount,
        },
        {
          provide: ABANDONED_RUN_AFTER_MS,
          useValue: options.abandonedRunAfterMs ?? usageRules.abandonedRunAfterMs,
        },
        {
          provide: STARTS_PER_MINUTE,
          useValue: options.startsPerMinute ?? usageRules.startsPerMinute,
        },
      ],
    };
  }
}
