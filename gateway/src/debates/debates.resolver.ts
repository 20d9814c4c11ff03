import {
  type Debate,
  DebateCategories,
  DebateId,
  debatesContracts,
  identityContracts,
} from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Args, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import type { z } from 'zod';
import { Authenticated } from '../auth/auth.decorators.js';
import { CurrentUser } from '../auth/current-user.js';
import type { AuthenticatedUser } from '../auth/token-verifier.js';
import { debateNotFound, parseInput } from '../errors/graphql-errors.js';
import { DebateModel, DebatePageModel, UnsavedDebateModel } from './debates.models.js';

function found(debate: Debate | null): DebateModel {
  if (!debate) throw debateNotFound();
  return debate;
}

/** The words a client reads when the list's contract refuses one of its arguments. */
function listArgumentMessage(issue: z.core.$ZodIssue): string {
  switch (issue.path[0]) {
    case 'search':
      return 'The search is longer than 200 characters';
    case 'order':
      return "order is 'newest' or 'oldest'";
    case 'after':
      return 'Invalid cursor';
    default:
      return issue.message;
  }
}

/** The debates service: the signed-in user's own debates (save, list, read, share, delete). */
@Resolver()
export class DebatesResolver {
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
    const chosen = parseInput(DebateCategories, categories);
    const savedRunId = parseInput(DebateId, runId, 'Invalid run id');
    const { user: profile } = await this.services.request(identityContracts.getUser, {
      id: user.id,
    });
    const saved = await this.services.request(debatesContracts.save, {
      userId: user.id,
      userDisplayName: profile?.displayName ?? null,
      isPro: profile?.isPro ?? false,
      runId: savedRunId,
      categories: chosen,
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
    const request = parseInput(
      debatesContracts.list.request,
      {
        userId: user.id,
        ...(search ? { search } : {}),
        ...(category ? { category } : {}),
        order,
        ...(after ? { after } : {}),
        limit,
      },
      listArgumentMessage,
    );
    return this.services.request(debatesContracts.list, request);
  }

  // The user's own last run only: the debates service asks the usage service which it was.
  @Authenticated()
  @Query(() => UnsavedDebateModel, {
    nullable: true,
    description:
      "The user's last generated debate while it is not saved and can still be (save it with " +
      'saveDebate), with its turns and scorecard; null otherwise.',
  })
  async unsavedDebate(@CurrentUser() user: AuthenticatedUser): Promise<UnsavedDebateModel | null> {
    const { run } = await this.services.request(debatesContracts.unsaved, { userId: user.id });
    return run;
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
    return { userId: user.id, debateId: parseInput(DebateId, id, 'Invalid debate id') };
  }
}
