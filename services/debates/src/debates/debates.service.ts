import {
  ANONYMOUS_AUTHOR,
  type debatesContracts,
  usageContracts,
  type FinishedRun,
  type ParsedRequestOf,
  type ResponseOf,
  runInstanceKey,
  runLookupContract,
  speakerWrittenBy,
} from '@debate/contracts';
import { ServiceClient, ServiceUnavailableError } from '@debate/nest';
import { Injectable } from '@nestjs/common';
import type { SavedDebateDocument } from '../schemas/saved-debate.schema.js';
import { DebateOutboxService } from './debate-outbox.service.js';
import { toDebate } from './debates.mapper.js';
import { DebatesRepository, type PrivateChange } from './debates.repository.js';
import { KeptRunsRepository } from './kept-runs.repository.js';

type Contracts = typeof debatesContracts;

const ALREADY_SAVED = {
  saved: false,
  reason: 'already_saved',
  message: 'This debate is already saved',
} as const;

/** A debate made private at `now`, owing the community its unshared event. */
function privateSince(now: Date): PrivateChange {
  return { isPublic: false, sharedAt: null, pendingEvent: { kind: 'unshared', at: now } };
}

/** A speaker of a finished run as saved: its settings and what really wrote its rounds. */
function speakerOf(run: FinishedRun, speaker: 'First Speaker' | 'Second Speaker') {
  const settings = speaker === 'First Speaker' ? run.first : run.second;
  return {
    name: settings.model,
    stance: settings.stance,
    rhetoricStyle: settings.rhetoricStyle,
    writtenBy: speakerWrittenBy(
      run.turns.flatMap((turn) => (turn.speaker === speaker ? [turn.writtenBy] : [])),
    ),
    // Whether it had hints, not what they said: the leaderboard rates only debates without.
    personalityHints: settings.personality.trim() !== '',
  };
}

/** What a finished run gives its saved debate (and the engine, shown again): all but the moderator's turns. */
function contentOf(run: FinishedRun) {
  return {
    topic: run.topic,
    model1: speakerOf(run, 'First Speaker'),
    model2: speakerOf(run, 'Second Speaker'),
    rounds: run.turns.flatMap((turn) =>
      turn.speaker === 'Moderator' || turn.round < 1 || turn.round > 3
        ? []
        : [
            {
              speaker: turn.speaker,
              round: turn.round,
              text: turn.text,
              summary: turn.summary,
              writtenBy: turn.writtenBy,
              team: turn.team,
            },
          ],
    ),
    verdict: run.verdict,
    debateFormat: run.debateFormat,
    moderatorEnabled: run.moderatorEnabled,
    rematchOf: run.rematchOf,
    stopped: run.stopped,
  };
}

/**
 * Saving, listing, sharing and deleting debates. Every operation names the user and finds only
 * that user's debates: the owner check is here, in the service that owns the data.
 */
@Injectable()
export class DebatesService {
  constructor(
    private readonly debates: DebatesRepository,
    private readonly services: ServiceClient,
    private readonly outbox: DebateOutboxService,
    private readonly kept: KeptRunsRepository,
  ) {}

  /** Saves the user's finished run as a private debate, its content from the generation service. */
  async save(request: ParsedRequestOf<Contracts['save']>): Promise<ResponseOf<Contracts['save']>> {
    const run = await this.finishedRun(request.runId, request.userId);
    if (!run) {
      // Saved already (and so kept no more), its instance restarted since: say so.
      if (await this.debates.findOwn(request.userId, request.runId)) return ALREADY_SAVED;
      return {
        saved: false,
        reason: 'run_not_found',
        message: 'This debate is no longer available to save',
      };
    }
    const document: SavedDebateDocument = {
      _id: run.runId,
      userId: request.userId,
      userDisplayName: request.userDisplayName?.trim() || ANONYMOUS_AUTHOR,
      categories: request.categories,
      timestamp: new Date(),
      sharedAt: null,
      views: 0,
      upvotes: 0,
      downvotes: 0,
      isPublic: false,
      isPro: request.isPro,
      ...contentOf(run),
    };
    if (!(await this.debates.insert(document))) return ALREADY_SAVED;
    await this.kept.forget(request.userId, run.runId);
    return { saved: true, debate: toDebate(document) };
  }

  /**
   * The user's finished run: from the generation instance that has it, else as kept here when
   * it completed (its instance restarted since); null when there is no such run of theirs.
   */
  private async finishedRun(runId: string, userId: string): Promise<FinishedRun | null> {
    const instance = runInstanceKey(runId);
    if (!instance) return null;
    try {
      const { run } = await this.services.request(
        runLookupContract,
        { runId, userId },
        { instance },
      );
      if (run) return run;
    } catch (error) {
      if (!(error instanceof ServiceUnavailableError && /no responders/i.test(error.reason))) {
        throw error;
      }
    }
    return this.kept.find(userId, runId, new Date());
  }

  /** Keeps the user's run that just completed, so that nothing depends on its instance. */
  async keepRun(
    request: ParsedRequestOf<Contracts['keepRun']>,
  ): Promise<ResponseOf<Contracts['keepRun']>> {
    await this.kept.keep(request.userId, request.run, new Date());
    return { kept: true };
  }

  async list(request: ParsedRequestOf<Contracts['list']>): Promise<ResponseOf<Contracts['list']>> {
    const page = await this.debates.list(request);
    return { debates: page.debates.map(toDebate), total: page.total, next: page.next };
  }

  /**
   * The user's last generated debate while it is not saved, with its content (from its
   * generation instance, or as kept here): the engine shows it again, with its Save panel,
   * after a reload, a sign-in or a restart.
   */
  async unsaved(
    request: ParsedRequestOf<Contracts['unsaved']>,
  ): Promise<ResponseOf<Contracts['unsaved']>> {
    const { runId } = await this.services.request(usageContracts.lastRun, {
      userId: request.userId,
    });
    if (!runId || (await this.debates.findOwn(request.userId, runId))) return { run: null };
    const run = await this.finishedRun(runId, request.userId);
    return { run: run ? { runId, ...contentOf(run) } : null };
  }

  async get(request: ParsedRequestOf<Contracts['get']>): Promise<ResponseOf<Contracts['get']>> {
    const found = await this.debates.findOwn(request.userId, request.debateId);
    return { debate: found ? toDebate(found) : null };
  }

  /**
   * Makes the debate public and announces it. Once the store has the change the share stands:
   * if the event log cannot take the announcement now, the outbox sweep delivers it later. The
   * event id is the debate's and its sharedAt, so repeated or concurrent shares announce it once.
   */
  async share(
    request: ParsedRequestOf<Contracts['share']>,
  ): Promise<ResponseOf<Contracts['share']>> {
    const shared = await this.debates.makePublic(request.userId, request.debateId, new Date());
    if (!shared?.isPublic || !shared.sharedAt) return { debate: null };
    await this.outbox.announce(shared);
    return { debate: toDebate(shared) };
  }

  async unshare(
    request: ParsedRequestOf<Contracts['unshare']>,
  ): Promise<ResponseOf<Contracts['unshare']>> {
    const change = privateSince(new Date());
    const before = await this.debates.makePrivate(request.userId, request.debateId, change);
    if (!before) return { debate: null };
    // What the write left, derived rather than read again (the outbox settles it only if it
    // still owes this very event).
    const unshared = { ...before, ...change };
    if (before.isPublic) await this.outbox.announce(unshared);
    return { debate: toDebate(unshared) };
  }

  /** Deletes the user's debate, and its public copy with it. */
  async delete(
    request: ParsedRequestOf<Contracts['delete']>,
  ): Promise<ResponseOf<Contracts['delete']>> {
    const now = new Date();
    const change = { ...privateSince(now), deletedAt: now };
    const before = await this.debates.markDeleted(request.userId, request.debateId, change);
    if (!before) return { deleted: false };
    const deleted = { ...before, ...change };
    // Announced only if the community may have it: public, or its share still owed.
    const wasShared = before.isPublic || before.pendingEvent?.kind === 'shared';
    await (wasShared ? this.outbox.announce(deleted) : this.outbox.forget(deleted));
    return { deleted: true };
  }
}
