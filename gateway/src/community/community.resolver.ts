import {
  communityDebateContracts,
  DebateId,
  MAX_LOCAL_STARS,
  type RankingPeriod,
  type RankingSort,
  type StanceBefore,
  type VoteKind,
} from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Args, Context, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { Authenticated, Public } from '../auth/auth.decorators.js';
import { CurrentUser, Viewer } from '../auth/current-user.js';
import type { AuthenticatedUser } from '../auth/token-verifier.js';
import { badInput, debateNotFound, parseInput } from '../errors/graphql-errors.js';
import {
  CommunityDebatePageModel,
  debateRatingModel,
  mindsChangedModel,
  PublicDebateModel,
  RankingPeriodValue,
  RankingSortValue,
  StanceBeforeValue,
  StandBeforeResultModel,
  VoteKindValue,
  VoteResultModel,
} from './community.models.js';
import { RateLimit } from '../rate-limit/rate-limit.guard.js';
import { clientOf } from '../rate-limit/rate-limiter.js';

/**
 * The words a client reads when a community contract refuses one of its arguments: its
 * ranking's or its merge's requests are checked as a whole, against the contract.
 */
function argumentMessage(issue: z.core.$ZodIssue): string {
  const [field, index] = issue.path;
  if (field === 'after') return 'Invalid cursor';
  // One id of a list (starredIds, debateIds).
  if (index !== undefined) return 'Invalid debate id';
  if (field === 'starredIds') return `At most ${MAX_LOCAL_STARS} starred debates`;
  return issue.message;
}

/** The community service: the ranking, one debate's rounds, votes and stars. */
@Resolver()
export class CommunityResolver {
  constructor(private readonly services: ServiceClient) {}

  @Public()
  @Query(() => CommunityDebatePageModel, {
    description:
      'Shared debates, filtered, sorted and paged; a signed-in viewer sees their votes and stars ' +
      '(a signed-out one passes the stars kept in the browser as starredIds).',
  })
  async communityDebates(
    @Viewer() viewer: AuthenticatedUser | null,
    @Args('category', { type: () => String, nullable: true }) category?: string | null,
    @Args('sort', { type: () => RankingSortValue, defaultValue: RankingSortValue.MOST_RECENT })
    sort: RankingSort = RankingSortValue.MOST_RECENT,
    @Args('period', { type: () => RankingPeriodValue, defaultValue: RankingPeriodValue.ALL_TIME })
    period: RankingPeriod = RankingPeriodValue.ALL_TIME,
    @Args('starredOnly', { type: () => Boolean, defaultValue: false }) starredOnly = false,
    @Args('starredIds', { type: () => [String], nullable: true }) starredIds?: string[] | null,
    @Args('utcOffsetMinutes', { type: () => Int, defaultValue: 0 }) utcOffsetMinutes = 0,
    @Args('after', { type: () => String, nullable: true }) after?: string | null,
    @Args('limit', { type: () => Int, defaultValue: 20 }) limit = 20,
  ): Promise<CommunityDebatePageModel> {
    const request = parseInput(
      communityDebateContracts.rank.request,
      {
        ...(viewer ? { viewerId: viewer.id } : {}),
        ...(category ? { category } : {}),
        sort,
        period,
        utcOffsetMinutes,
        starredOnly,
        // A signed-in viewer's stars are the community's to know.
        ...(starredIds && !viewer ? { starredIds } : {}),
        ...(after ? { after } : {}),
        limit,
      },
      argumentMessage,
    );
    const page = await this.services.request(communityDebateContracts.rank, request);
    if ('invalid' in page) throw badInput(page.message);
    return {
      ...page,
      debates: page.debates.map((debate) => ({
        ...debate,
        mindsChanged: mindsChangedModel(debate.mindsChanged),
        rating: debateRatingModel(debate.rating),
      })),
    };
  }

  @Public()
  @Query(() => PublicDebateModel, {
    description:
      'One shared debate with its rounds; counts a view. A signed-in reader gets their vote, ' +
      'their answer before reading and whether to be asked it.',
  })
  async communityDebate(
    @Args('id') id: string,
    @Viewer() viewer: AuthenticatedUser | null,
    @Context('req') request: FastifyRequest,
  ): Promise<PublicDebateModel> {
    const {
      debate,
      viewer: marks,
      pair,
    } = await this.services.request(communityDebateContracts.get, {
      debateId: parseInput(DebateId, id, 'Invalid debate id'),
      countView: true,
      // The client's address as the rate limits count it (an IPv6 client's /64).
      ...(viewer ? { viewerId: viewer.id } : { readerAddress: clientOf(request.ip) }),
    });
    if (!debate) throw debateNotFound();
    return {
      ...debate,
      mindsChanged: mindsChangedModel(debate.mindsChanged),
      rating: debateRatingModel(debate.rating),
      myVote: marks?.myVote ?? null,
      standBefore: marks?.standBefore ?? null,
      askBefore: marks?.askBefore ?? false,
      pairedWith: pair,
    };
  }

  // Signed-in readers only: an answer is counted once per account (the community refuses a
  // second one, and one from the debate's author).
  @Authenticated()
  @RateLimit('vote', { account: 'user' })
  @Mutation(() => StandBeforeResultModel, {
    description:
      'Where the reader stands before reading the debate (null: skipped), once per reader and ' +
      'debate, before any vote; not changeable afterwards.',
  })
  async standBefore(
    @Args('debateId') id: string,
    @Args('stance', { type: () => StanceBeforeValue, nullable: true })
    stance: StanceBefore | null,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<StandBeforeResultModel> {
    const debateId = parseInput(DebateId, id, 'Invalid debate id');
    const result = await this.services.request(communityDebateContracts.standBefore, {
      readerId: user.id,
      debateId,
      stance: stance ?? null,
    });
    if ('refused' in result) throw badInput(result.message, 'debateId');
    if (!result.found) throw debateNotFound();
    return {
      debateId,
      standBefore: result.viewer.standBefore ?? 'SKIPPED',
      mindsChanged: mindsChangedModel(result.mindsChanged),
    };
  }

  @Authenticated()
  @RateLimit('vote', { account: 'user' })
  @Mutation(() => VoteResultModel, {
    description:
      'Votes For, Against or Interesting; another kind changes the vote, null removes it.',
  })
  async vote(
    @Args('debateId') id: string,
    @Args('kind', { type: () => VoteKindValue, nullable: true }) kind: VoteKind | null,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<VoteResultModel> {
    const debateId = parseInput(DebateId, id, 'Invalid debate id');
    const result = await this.services.request(communityDebateContracts.vote, {
      voterId: user.id,
      debateId,
      kind: kind ?? null,
    });
    if (!result.found) throw debateNotFound();
    return {
      debateId,
      ...result.counts,
      myVote: result.myVote,
      mindsChanged: mindsChangedModel(result.mindsChanged),
    };
  }

  @Authenticated()
  @RateLimit('toggleStar', { account: 'user' })
  @Mutation(() => Boolean, {
    description:
      'Stars the debate or takes the star away: to `starred` when given (sending it twice ' +
      'changes nothing), else the other way round. Answers whether it is starred.',
  })
  async toggleStar(
    @Args('debateId') id: string,
    @CurrentUser() user: AuthenticatedUser,
    @Args('starred', { type: () => Boolean, nullable: true }) starred?: boolean | null,
  ): Promise<boolean> {
    const result = await this.services.request(communityDebateContracts.toggleStar, {
      userId: user.id,
      debateId: parseInput(DebateId, id, 'Invalid debate id'),
      ...(typeof starred === 'boolean' ? { starred } : {}),
    });
    if (!result.found) throw debateNotFound();
    return result.starred;
  }

  @Authenticated()
  @RateLimit('mergeStars', { account: 'user' })
  @Mutation(() => [String], {
    description:
      "Adds the stars a visitor kept in the browser to the account; returns all the user's stars.",
  })
  async mergeStars(
    @Args('debateIds', { type: () => [String] }) ids: string[],
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<string[]> {
    const request = parseInput(
      communityDebateContracts.mergeStars.request,
      { userId: user.id, debateIds: ids },
      argumentMessage,
    );
    const merged = await this.services.request(communityDebateContracts.mergeStars, request);
    return merged.debateIds;
  }
}
