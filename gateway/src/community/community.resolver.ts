import { communityDebateContracts, DebateCategory, MAX_LOCAL_STARS } from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Args, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { z } from 'zod';
import { Authenticated, Public } from '../auth/auth.decorators.js';
import { CurrentUser, Viewer } from '../auth/current-user.js';
import type { AuthenticatedUser } from '../auth/token-verifier.js';
import { badInput, debateNotFound } from '../errors/graphql-errors.js';
import {
  CommunityDebatePageModel,
  PublicDebateModel,
  RankingPeriodValue,
  RankingSortValue,
  VoteKindValue,
  VoteResultModel,
} from './community.models.js';
import { RateLimit } from '../rate-limit/rate-limit.guard.js';

const debateId = z.string().min(1, 'Invalid debate id').max(128, 'Invalid debate id');
const RankArgs = z.object({
  category: DebateCategory.optional(),
  utcOffsetMinutes: z.number().int().min(-840).max(840),
  starredIds: z
    .array(debateId)
    .max(MAX_LOCAL_STARS, `At most ${MAX_LOCAL_STARS} starred debates`)
    .optional(),
  after: z.string().max(300, 'Invalid cursor').optional(),
  limit: z.number().int().min(1).max(50),
});

function parsed<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw badInput(result.error.issues[0]?.message ?? 'Invalid arguments');
  return result.data;
}

/** The community hub: the ranking, one debate's rounds, votes and stars. */
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
    sort = RankingSortValue.MOST_RECENT,
    @Args('period', { type: () => RankingPeriodValue, defaultValue: RankingPeriodValue.ALL_TIME })
    period = RankingPeriodValue.ALL_TIME,
    @Args('starredOnly', { type: () => Boolean, defaultValue: false }) starredOnly = false,
    @Args('starredIds', { type: () => [String], nullable: true }) starredIds?: string[] | null,
    @Args('utcOffsetMinutes', { type: () => Int, defaultValue: 0 }) utcOffsetMinutes = 0,
    @Args('after', { type: () => String, nullable: true }) after?: string | null,
    @Args('limit', { type: () => Int, defaultValue: 20 }) limit = 20,
  ): Promise<CommunityDebatePageModel> {
    const args = parsed(RankArgs, {
      ...(category ? { category } : {}),
      utcOffsetMinutes,
      ...(starredIds && !viewer ? { starredIds } : {}),
      ...(after ? { after } : {}),
      limit,
    });
    const page = await this.services.request(communityDebateContracts.rank, {
      ...args,
      ...(viewer ? { viewerId: viewer.id } : {}),
      sort,
      period,
      starredOnly,
    });
    if ('invalid' in page) throw badInput(page.message);
    return {
      next: page.next,
      debates: page.debates.map((debate) => ({
        ...debate,
        myVote: debate.myVote as VoteKindValue | null,
      })),
    };
  }

  @Public()
  @Query(() => PublicDebateModel, {
    description: 'One shared debate with its rounds; counts a view.',
  })
  async communityDebate(@Args('id') id: string): Promise<PublicDebateModel> {
    const { debate } = await this.services.request(communityDebateContracts.get, {
      debateId: parsed(debateId, id),
      countView: true,
    });
    if (!debate) throw debateNotFound();
    return debate;
  }

  @Authenticated()
  @RateLimit('vote', { account: 'user' })
  @Mutation(() => VoteResultModel, {
    description:
      'Votes For, Against or Interesting; another kind changes the vote, null removes it.',
  })
  async vote(
    @Args('debateId') id: string,
    @Args('kind', { type: () => VoteKindValue, nullable: true }) kind: VoteKindValue | null,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<VoteResultModel> {
    const result = await this.services.request(communityDebateContracts.vote, {
      voterId: user.id,
      debateId: parsed(debateId, id),
      kind: kind ?? null,
    });
    if (!result.found) throw debateNotFound();
    return { debateId: id, ...result.counts, myVote: result.myVote as VoteKindValue | null };
  }

  @Authenticated()
  @RateLimit('toggleStar', { account: 'user' })
  @Mutation(() => Boolean, { description: 'Stars the debate, or takes the star away: starred?' })
  async toggleStar(
    @Args('debateId') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<boolean> {
    const result = await this.services.request(communityDebateContracts.toggleStar, {
      userId: user.id,
      debateId: parsed(debateId, id),
    });
    if (!result.found) throw debateNotFound();
    return result.starred;
  }

  @Authenticated()
  @Mutation(() => [String], {
    description:
      "Adds the stars a visitor kept in the browser to the account; returns all the user's stars.",
  })
  async mergeStars(
    @Args('debateIds', { type: () => [String] }) ids: string[],
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<string[]> {
    const debateIds = parsed(z.array(debateId).max(MAX_LOCAL_STARS), ids);
    const merged = await this.services.request(communityDebateContracts.mergeStars, {
      userId: user.id,
      debateIds,
    });
    return merged.debateIds;
  }
}
