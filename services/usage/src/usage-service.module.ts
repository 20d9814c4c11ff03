import { ServiceCoreModule, ServiceDataModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { AllowanceController } from './allowance/allowance.controller.js';
import { CLOCK, type Clock, TEST_ACCOUNT_EMAIL, UsageLedger } from './allowance/ledger.js';

export interface UsageServiceOptions extends ServiceRuntimeOptions {
  /** The designated test account (USAGE_TEST_ACCOUNT_EMAIL) with a daily 100. */
  readonly testAccountEmail?: string | undefined;
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
        UsageLedger,
        { provide: CLOCK, useValue: options.clock ?? (() => new Date()) },
        {
          provide: TEST_ACCOUNT_EMAIL,
          useValue: options.testAccountEmail?.trim().toLowerCase() || null,
        },
      ],
    };
  }
}
