import {
  catalogContracts,
  identityContracts,
  leaderboardContracts,
  ListingName,
  NO_LISTING_NAME,
  type LeaderboardSubject,
} from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Authenticated, Public } from '../auth/auth.decorators.js';
import { CurrentUser } from '../auth/current-user.js';
import type { AuthenticatedUser } from '../auth/token-verifier.js';
import { badInput, parseInput } from '../errors/graphql-errors.js';
import { RateLimit } from '../rate-limit/rate-limit.guard.js';
import {
  LeaderboardModel,
  LeaderboardSubjectValue,
  PeopleListingModel,
} from './leaderboard.models.js';

/** The community service's leaderboard of models, setups, styles and people. */
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
    @Args('controlled', {
      type: () => Boolean,
      defaultValue: false,
      description: 'Controlled for length and for where the room started.',
    })
    controlled = false,
  ): Promise<LeaderboardModel> {
    const board = await this.services.request(leaderboardContracts.get, {
      subject,
      pairsOnly,
      controlled,
    });
    // The deprecated unknownWriter: what notRecorded now counts (writers not kept among them).
    return { ...board, notRated: { ...board.notRated, unknownWriter: board.notRated.notRecorded } };
  }

  @Authenticated()
  @Query(() => PeopleListingModel, {
    description: "The user's listing on the People board, and how many of their debates it rated.",
  })
  peopleListing(@CurrentUser() user: AuthenticatedUser): Promise<PeopleListingModel> {
    return this.services.request(leaderboardContracts.getListing, { userId: user.id });
  }

  // Each change recomputes every board: limited per account.
  @Authenticated()
  @RateLimit('setPeopleListing', { account: 'user' })
  @Mutation(() => PeopleListingModel, {
    description:
      'Lists the user on the People board under `name` (none: their display name), or takes ' +
      'them off it. A name may not be "People" nor a model\'s.',
  })
  async setPeopleListing(
    @Args('listed', { type: () => Boolean }) listed: boolean,
    @CurrentUser() user: AuthenticatedUser,
    @Args('name', { type: () => String, nullable: true }) name?: string | null,
  ): Promise<PeopleListingModel> {
    if (!listed) {
      return this.services.request(leaderboardContracts.setListing, {
        userId: user.id,
        listed: false,
      });
    }
    const listedAs = parseInput(ListingName, name ?? (await this.displayNameOf(user)));
    await this.refuseModelLabel(listedAs);
    return this.services.request(leaderboardContracts.setListing, {
      userId: user.id,
      listed: true,
      name: listedAs,
    });
  }

  /** The user's display name, or a refusal when they have none. */
  private async displayNameOf(user: AuthenticatedUser): Promise<string> {
    const { user: profile } = await this.services.request(identityContracts.getUser, {
      id: user.id,
    });
    const name = profile?.displayName?.trim();
    if (!name) throw badInput(NO_LISTING_NAME, 'name');
    return name;
  }

  /** A person listed under a model's label would pass for that model on the board. */
  private async refuseModelLabel(name: string): Promise<void> {
    const { models } = await this.services.request(catalogContracts.generationCatalog, {});
    const wanted = name.toLowerCase();
    if (models.some((model) => model.label.trim().toLowerCase() === wanted)) {
      throw badInput(`"${name}" is a model's name on the board: choose another name.`, 'name');
    }
  }
}
