import {
  debatesContracts,
  type FinishedRun,
  type ParsedRequestOf,
  type ResponseOf,
  runInstanceKey,
  runLookupContract,
} from '@debate/contracts';
import { HandleRequest, ServiceClient, ServiceUnavailableError } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { DebateAnnouncer } from './debate-announcer.js';
import {
  type DebateDocument,
  DebatesRepository,
  privateSince,
  toDebate,
} from './debates.repository.js';

type Contracts = typeof debatesContracts;

export const ANONYMOUS_USER = 'Anonymous User';

/**
 * Saving, listing, sharing and deleting debates. Every operation names the user and finds only
 * that user's debates: the owner check is here, in the service that owns the data.
 */
@Controller()
export class DebatesController {
  constructor(
    private readonly debates: DebatesRepository,
    private readonly services: ServiceClient,
    private readonly announcer: DebateAnnouncer,
  ) {}

  @HandleRequest(debatesContracts.save)
  async save(request: ParsedRequestOf<Contracts['save']>): Promise<ResponseOf<Contracts['save']>> {
    const run = await this.finishedRun(request.runId, request.userId);
    if (!run) {
      return {
        saved: false,
        reason: 'run_not_found',
        message: 'This debate is no longer available to save',
      };
    }
    const document: DebateDocument = {
      _id: run.runId,
      userId: request.userId,
      userDisplayName: request.userDisplayName?.trim() || ANONYMOUS_USER,
      topic: run.topic,
      categories: request.categories,
      timestamp: new Date(),
      sharedAt: null,
      views: 0,
      upvotes: 0,
      downvotes: 0,
      isPublic: false,
      isPro: request.isPro,
      model1: {
        name: run.first.model,
        stance: run.first.stance,
        rhetoricStyle: run.first.rhetoricStyle,
      },
      model2: {
        name: run.second.model,
        stance: run.second.stance,
        rhetoricStyle: run.second.rhetoricStyle,
      },
      rounds: run.turns.flatMap((turn) =>
        turn.speaker === 'Moderator' || turn.round < 1 || turn.round > 3
          ? []
          : [{ speaker: turn.speaker, round: turn.round, text: turn.text, summary: turn.summary }],
      ),
    };
    if (!(await this.debates.insert(document))) {
      return { saved: false, reason: 'already_saved', message: 'This debate is already saved' };
    }
    return { saved: true, debate: toDebate(document) };
  }

  /**
   * The user's finished run, from the generation instance that has it; null when there is no
   * such run, or its instance is gone (it stopped, and its runs with it).
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
      return run;
    } catch (error) {
      if (error instanceof ServiceUnavailableError && /no responders/i.test(error.reason)) {
        return null;
      }
      throw error;
    }
  }

  @HandleRequest(debatesContracts.list)
  async list(request: ParsedRequestOf<Contracts['list']>): Promise<ResponseOf<Contracts['list']>> {
    const page = await this.debates.list(request);
    return { debates: page.debates.map(toDebate), total: page.total, next: page.next };
  }

  @HandleRequest(debatesContracts.get)
  async get(request: ParsedRequestOf<Contracts['get']>): Promise<ResponseOf<Contracts['get']>> {
    const found = await this.debates.findOwn(request.userId, request.debateId);
    return { debate: found ? toDebate(found) : null };
  }

  /**
   * Makes the debate public and announces it. Once the store has the change the share stands:
   * if the event log cannot take the announcement now, the outbox sweep delivers it later. The
   * event id is the debate's and its sharedAt, so repeated or concurrent shares announce it once.
   */
  @HandleRequest(debatesContracts.share)
  async share(
    request: ParsedRequestOf<Contracts['share']>,
  ): Promise<ResponseOf<Contracts['share']>> {
    const shared = await this.debates.makePublic(request.userId, request.debateId, new Date());
    if (!shared?.isPublic || !shared.sharedAt) return { debate: null };
    await this.announcer.announce(shared);
    return { debate: toDebate(shared) };
  }

  @HandleRequest(debatesContracts.unshare)
  async unshare(
    request: ParsedRequestOf<Contracts['unshare']>,
  ): Promise<ResponseOf<Contracts['unshare']>> {
    const now = new Date();
    const before = await this.debates.makePrivate(request.userId, request.debateId, now);
    if (!before) return { debate: null };
    // What the write left, derived rather than read again (the outbox settles it only if it
    // still owes this very event).
    const unshared = { ...before, ...privateSince(now) };
    if (before.isPublic) await this.announcer.announce(unshared);
    return { debate: toDebate(unshared) };
  }

  /** Deletes the user's debate, and its public copy with it. */
  @HandleRequest(debatesContracts.delete)
  async delete(
    request: ParsedRequestOf<Contracts['delete']>,
  ): Promise<ResponseOf<Contracts['delete']>> {
    const now = new Date();
    const before = await this.debates.markDeleted(request.userId, request.debateId, now);
    if (!before) return { deleted: false };
    const deleted = { ...before, ...privateSince(now), deletedAt: now };
    // Announced only if the community may have it: public, or its share still owed.
    const wasShared = before.isPublic || before.pendingEvent?.kind === 'shared';
    await (wasShared ? this.announcer.announce(deleted) : this.announcer.forget(deleted));
    return { deleted: true };
  }
}
