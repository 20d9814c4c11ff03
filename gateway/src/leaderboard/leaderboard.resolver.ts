import { leaderboardContracts, type LeaderboardSubject } from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { Public } from '../auth/auth.decorators.js';
import { LeaderboardModel, LeaderboardSubjectValue } from './leaderboard.models.js';

/** The community service's leaderboard of models and styles. */
@Resolver()
export class LeaderboardResolver {
  constructor(private readonly services: ServiceClient) {}

  // Public: the leaderboard is computed from shared debates only, and is the same for everyone.
  @Public()
  @Query(() => LeaderboardModel, {
    description:
      "Ratings of the models that wrote the shared, judged debates (or of the styles), from the judges' " +
      "verdicts and the audience's minds changed; recomputed in the background, not per request.",
  })
  async leaderboard(
    @Args('subject', { type: () => LeaderboardSubjectValue }) subject: LeaderboardSubject,
    @Args('pairsOnly', { type: () => Boolean, defaultValue: false }) pairsOnly = false,
  ): Promise<LeaderboardModel> {
    const board = await this.services.request(leaderboardContracts.get, { subject, pairsOnly });
    // The deprecated unknownWriter: what notRecorded now counts (writers not kept among them).
    return { ...board, notRated: { ...board.notRated, unknownWriter: board.notRated.notRecorded } };
  }
}
