import {
  debatesContracts,
  debateSharedEvent,
  debateUnsharedEvent,
  type ParsedRequestOf,
  type ResponseOf,
  runLookupContract,
} from '@debate/contracts';
import { EventLog, HandleRequest, ServiceClient } from '@debate/nest';
import { Controller } from '@nestjs/common';
import { type DebateDocument, DebatesRepository, toDebate } from './debates.repository.js';

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
    private readonly events: EventLog,
  ) {}

  @HandleRequest(debatesContracts.save)
  async save(request: ParsedRequestOf<Contracts['save']>): Promise<ResponseOf<Contracts['save']>> {
    const { run } = await this.services.request(runLookupContract, {
      runId: request.runId,
      userId: request.userId,
    });
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
   * Makes the debate public and announces it. The event id is the debate's and its sharedAt, so
   * repeated or concurrent shares announce it once.
   */
  @HandleRequest(debatesContracts.share)
  async share(
    request: ParsedRequestOf<Contracts['share']>,
  ): Promise<ResponseOf<Contracts['share']>> {
    const shared = await this.debates.makePublic(request.userId, request.debateId, new Date());
    if (!shared?.isPublic || !shared.sharedAt) return { debate: null };
    const debate = toDebate(shared);
    await this.events.publish(
      debateSharedEvent,
      { debate },
      `shared:${debate.id}:${debate.sharedAt}`,
    );
    return { debate };
  }

  @HandleRequest(debatesContracts.unshare)
  async unshare(
    request: ParsedRequestOf<Contracts['unshare']>,
  ): Promise<ResponseOf<Contracts['unshare']>> {
    const before = await this.debates.makePrivate(request.userId, request.debateId);
    if (!before) return { debate: null };
    if (before.isPublic) await this.announceUnshared(before);
    return { debate: toDebate({ ...before, isPublic: false, sharedAt: null }) };
  }

  private async announceUnshared(debate: DebateDocument): Promise<void> {
    await this.events.publish(
      debateUnsharedEvent,
      { debateId: debate._id, at: new Date().toISOString() },
      `unshared:${debate._id}:${debate.sharedAt?.toISOString() ?? 'never'}`,
    );
  }

  /** Deletes the user's debate, and its public copy with it. */
  @HandleRequest(debatesContracts.delete)
  async delete(
    request: ParsedRequestOf<Contracts['delete']>,
  ): Promise<ResponseOf<Contracts['delete']>> {
    const deleted = await this.debates.deleteOwn(request.userId, request.debateId);
    if (!deleted) return { deleted: false };
    if (deleted.isPublic) await this.announceUnshared(deleted);
    return { deleted: true };
  }
}
