import { usageContracts } from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Query, Resolver } from '@nestjs/graphql';
import { Authenticated } from '../auth/auth.decorators.js';
import { CurrentUser } from '../auth/current-user.js';
import type { AuthenticatedUser } from '../auth/token-verifier.js';
import { UsageModel } from './usage.models.js';

/** The usage service: the signed-in user's free-debate allowance. */
@Resolver()
export class UsageResolver {
  constructor(private readonly services: ServiceClient) {}

  @Authenticated()
  @Query(() => UsageModel, { description: "The signed-in user's free-debate allowance." })
  async usage(@CurrentUser() user: AuthenticatedUser): Promise<UsageModel> {
    const stats = await this.services.request(usageContracts.stats, {
      userId: user.id,
      email: user.email,
      emailVerified: user.emailVerified,
    });
    return {
      freeDebatesRemaining: stats.freeDebatesRemaining,
      lastDebateStarted: stats.lastDebateStarted,
      nextFreeDebateAt: stats.nextFreeDebateAt,
      totalDebates: stats.totalDebates,
      memberSince: stats.createdAt,
      tokensIn: stats.tokensIn,
      tokensOut: stats.tokensOut,
    };
  }
}
