import {
  DebateSettings,
  generationContracts,
  runInstanceKey,
  type RunEvent,
  usageContracts,
} from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import type { OnModuleDestroy } from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import { Args, Mutation, Query, Resolver, Subscription } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import { Authenticated } from '../auth/auth.decorators.js';
import { CurrentUser } from '../auth/current-user.js';
import type { AuthenticatedUser } from '../auth/token-verifier.js';
import { observableIterator } from '../common/observable-iterator.js';
import { DebateRunEventModel, DebateSettingsInput, UsageModel } from './debate.models.js';

function toModel(event: RunEvent): DebateRunEventModel {
  const empty: DebateRunEventModel = {
    type: event.type,
    seq: event.seq,
    at: event.at,
    runId: null,
    topic: null,
    speakerKind: null,
    firstStance: null,
    secondStance: null,
    turn: null,
    speaker: null,
    round: null,
    roundTitle: null,
    text: null,
    summary: null,
    failed: null,
    message: null,
  };
  return { ...empty, ...event };
}

/**
 * Two pieces of the same turn's text waiting to be sent go as one (the later seq, the earlier
 * time): under load the browser gets fewer, larger messages instead of a growing backlog.
 */
function joinDeltas(
  earlier: { debateRun: DebateRunEventModel },
  later: { debateRun: DebateRunEventModel },
): { debateRun: DebateRunEventModel } | undefined {
  const a = earlier.debateRun;
  const b = later.debateRun;
  if (a.type !== 'textDelta' || b.type !== 'textDelta' || a.turn !== b.turn) return undefined;
  return { debateRun: { ...b, at: a.at, text: `${a.text ?? ''}${b.text ?? ''}` } };
}

/** Starting a debate, watching it being written, and the allowance it draws on. */
@Resolver()
export class DebateResolver implements OnModuleDestroy {
  private readonly shutdown = new AbortController();

  constructor(private readonly services: ServiceClient) {
    // Every open debateRun subscription listens to it: as many listeners as runs watched.
    setMaxListeners(0, this.shutdown.signal);
  }

  onModuleDestroy(): void {
    this.shutdown.abort();
  }

  @Authenticated()
  @Mutation(() => String, {
    description:
      'Takes one free debate and starts generating it; returns the run id to watch with debateRun.',
  })
  async startDebate(
    @Args('settings', { type: () => DebateSettingsInput }) input: DebateSettingsInput,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<string> {
    const settings = DebateSettings.safeParse(input);
    if (!settings.success) {
      const issue = settings.error.issues[0];
      throw new GraphQLError(
        `${issue?.path.join('.') || 'settings'}: ${issue?.message ?? 'invalid'}`,
        { extensions: { code: 'BAD_USER_INPUT' } },
      );
    }
    // The usage service refuses a start when no free debate is left, or when the user has
    // started the per-minute limit's worth already (counted there, for every gateway alike).
    const started = await this.services.request(
      generationContracts.start,
      { userId: user.id, email: user.email, settings: settings.data },
      { timeoutMs: 10_000 },
    );
    if (!started.started) {
      const code = started.reason === 'rate_limited' ? 'RATE_LIMITED' : 'NO_FREE_DEBATES';
      throw new GraphQLError(started.message, { extensions: { code } });
    }
    return started.runId;
  }

  @Authenticated()
  @Subscription(() => DebateRunEventModel, {
    description: "A run's events from its start, then live until it ends (its owner only).",
  })
  debateRun(
    @Args('id') id: string,
    @CurrentUser() user: AuthenticatedUser,
  ): AsyncIterableIterator<{ debateRun: DebateRunEventModel }> {
    if (id.length === 0 || id.length > 128) {
      throw new GraphQLError('Invalid run id', { extensions: { code: 'BAD_USER_INPUT' } });
    }
    const instance = runInstanceKey(id);
    if (!instance) {
      throw new GraphQLError('No such debate run', { extensions: { code: 'NOT_FOUND' } });
    }
    return observableIterator(
      this.services.stream(generationContracts.watch, { runId: id, userId: user.id }, { instance }),
      (event) => ({ debateRun: toModel(event) }),
      this.shutdown.signal,
      joinDeltas,
    );
  }

  @Authenticated()
  @Query(() => UsageModel, { description: "The signed-in user's free-debate allowance." })
  async usage(@CurrentUser() user: AuthenticatedUser): Promise<UsageModel> {
    const stats = await this.services.request(usageContracts.stats, {
      userId: user.id,
      email: user.email,
    });
    return {
      freeDebatesRemaining: stats.freeDebatesRemaining,
      lastDebateStarted: stats.lastDebateStarted,
      totalDebates: stats.totalDebates,
      memberSince: stats.createdAt,
    };
  }
}
