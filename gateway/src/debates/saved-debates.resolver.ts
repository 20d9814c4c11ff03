import {
  type Debate,
  DebateCategories,
  DebateCategory,
  debatesContracts,
  identityContracts,
} from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Args, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import { z } from 'zod';
import { Authenticated } from '../auth/auth.decorators.js';
import { CurrentUser } from '../auth/current-user.js';
import type { AuthenticatedUser } from '../auth/token-verifier.js';
import { badInput, debateNotFound } from '../errors/graphql-errors.js';
import { DebateModel, DebatePageModel } from './saved-debate.models.js';

function found(debate: Debate | null): DebateModel {
  if (!debate) throw debateNotFound();
  return debate;
}

const ListArgs = z.object({
  search: z.string().max(200, 'The search is longer than 200 characters').optional(),
  category: DebateCategory.optional(),
  limit: z.number().int().min(1).max(50),
});

/** The signed-in user's own debates: save, list, read, share, unshare, delete. */
@Resolver()
export class SavedDebatesResolver {
  constructor(private readonly services: ServiceClient) {}

  @Authenticated()
  @Mutation(() => DebateModel, {
    description: 'Saves a debate the user generated (1 to 3 categories) to their history.',
  })
  async saveDebate(
    @Args('runId') runId: string,
    @Args('categories', { type: () => [String] }) categories: string[],
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<DebateModel> {
    const chosen = DebateCategories.safeParse(categories);
    if (!chosen.success) throw badInput(chosen.error.issues[0]?.message ?? 'Invalid categories');
    if (runId.length === 0 || runId.length > 128) throw badInput('Invalid run id');
    const { user: profile } = await this.services.request(identityContracts.getUser, {
      id: user.id,
    });
    const saved = await this.services.request(debatesContracts.save, {
      userId: user.id,
      userDisplayName: profile?.displayName ?? null,
      isPro: profile?.isPro ?? false,
      runId,
      categories: chosen.data,
    });
    if (!saved.saved) {
      throw new GraphQLError(saved.message, {
        extensions: { code: 'CONFLICT', reason: saved.reason },
      });
    }
    return saved.debate;
  }

  @Authenticated()
  @Query(() => DebatePageModel, { description: "The user's saved debates, a page at a time." })
  async myDebates(
    @CurrentUser() user: AuthenticatedUser,
    @Args('search', { type: () => String, nullable: true }) search?: string | null,
    @Args('category', { type: () => String, nullable: true }) category?: string | null,
    @Args('order', { type: () => String, defaultValue: 'newest' }) order = 'newest',
    @Args('after', { type: () => String, nullable: true }) after?: string | null,
    @Args('limit', { type: () => Int, defaultValue: 20 }) limit = 20,
  ): Promise<DebatePageModel> {
    const args = ListArgs.safeParse({
      ...(search ? { search } : {}),
      ...(category ? { category } : {}),
      limit,
    });
    if (!args.success) throw badInput(args.error.issues[0]?.message ?? 'Invalid arguments');
    if (order !== 'newest' && order !== 'oldest') throw badInput("order is 'newest' or 'oldest'");
    if (after && after.length > 200) throw badInput('Invalid cursor');
    return this.services.request(debatesContracts.list, {
      userId: user.id,
      ...args.data,
      order,
      ...(after ? { after } : {}),
    });
  }

  @Authenticated()
  @Query(() => DebateModel, { description: 'One of the user’s debates, with its rounds.' })
  async myDebate(
    @Args('id') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<DebateModel> {
    return found((await this.services.request(debatesContracts.get, this.own(user, id))).debate);
  }

  @Authenticated()
  @Mutation(() => DebateModel, { description: 'Publishes the debate to the community.' })
  async shareDebate(
    @Args('id') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<DebateModel> {
    return found((await this.services.request(debatesContracts.share, this.own(user, id))).debate);
  }

  @Authenticated()
  @Mutation(() => DebateModel, { description: 'Takes the debate back from the community.' })
  async unshareDebate(
    @Args('id') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<DebateModel> {
    return found(
      (await this.services.request(debatesContracts.unshare, this.own(user, id))).debate,
    );
  }

  @Authenticated()
  @Mutation(() => Boolean, { description: 'Deletes the debate (and its public copy).' })
  async deleteDebate(
    @Args('id') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<boolean> {
    const { deleted } = await this.services.request(debatesContracts.delete, this.own(user, id));
    if (!deleted) found(null);
    return true;
  }

  private own(user: AuthenticatedUser, id: string): { userId: string; debateId: string } {
    if (id.length === 0 || id.length > 128) throw badInput('Invalid debate id');
    return { userId: user.id, debateId: id };
  }
}
