import { judgesContracts } from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Query, Resolver } from '@nestjs/graphql';
import { Public } from '../auth/auth.decorators.js';
import { JudgesReportModel } from './judges.models.js';

/** The community service's record of the judges: how far to trust them. */
@Resolver()
export class JudgesResolver {
  constructor(private readonly services: ServiceClient) {}

  // Public, like the leaderboard: computed from shared debates only, the same for everyone.
  @Public()
  @Query(() => JudgesReportModel, {
    description:
      "The judges' record (position consistency, agreement between judges, self-preference, " +
      'length bias, agreement with the readers), each figure with its 95% interval and count; ' +
      'recomputed in the background, not per request.',
  })
  judges(): Promise<JudgesReportModel> {
    return this.services.request(judgesContracts.get, {});
  }
}
