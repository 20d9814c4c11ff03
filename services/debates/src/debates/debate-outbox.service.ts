import { debateSharedEvent, debateUnsharedEvent } from '@debate/contracts';
import { EventLog, PinoLoggerService } from '@debate/nest';
import {
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { SavedDebateDocument } from '../schemas/saved-debate.schema.js';
import { toSharedDebate } from './debates.mapper.js';
import { DebatesRepository } from './debates.repository.js';

/** How often the outbox is swept for events not yet announced. */
const OUTBOX_SWEEP_MS = 5_000;
/** An event younger than this is left to the request that owes it. */
const OUTBOX_GRACE_MS = 2_000;

/**
 * Announces what sharing, unsharing and deleting owe the community: the event each change wrote
 * into its debate's outbox field. The request that made the change announces it at once; if the
 * event log could not take it then (or the service stopped in between), the sweep here does,
 * every few seconds and at start. The event ids make a repeat harmless: the log keeps one
 * within its duplicate window, and the community applies shared/unshared by their times.
 */
@Injectable()
export class DebateOutboxService implements OnApplicationBootstrap, OnApplicationShutdown {
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;

  constructor(
    private readonly debates: DebatesRepository,
    private readonly events: EventLog,
    private readonly logger: PinoLoggerService,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep();
    this.sweeper = setInterval(() => void this.sweep(), OUTBOX_SWEEP_MS);
    this.sweeper.unref();
  }

  onApplicationShutdown(): Promise<unknown> | undefined {
    clearInterval(this.sweeper);
    return this.sweeping;
  }

  /**
   * Publishes the event `document` owes, then settles it (a deleted debate's document goes).
   * False, logged, when the log did not take it: the sweep tries again.
   */
  async announce(document: SavedDebateDocument): Promise<boolean> {
    const pending = document.pendingEvent;
    if (!pending) return true;
    try {
      if (pending.kind === 'shared' && document.isPublic && document.sharedAt) {
        const debate = toSharedDebate(document);
        await this.events.publish(
          debateSharedEvent,
          { debate },
          `shared:${debate.id}:${debate.sharedAt}`,
        );
      } else if (pending.kind === 'unshared') {
        await this.events.publish(
          debateUnsharedEvent,
          { debateId: document._id, at: pending.at.toISOString() },
          `unshared:${document._id}:${pending.at.toISOString()}`,
        );
      }
      await this.debates.settle(document._id, pending, Boolean(document.deletedAt));
      return true;
    } catch (error) {
      this.logger.warn(
        `Could not announce ${pending.kind} debate ${document._id} yet (retried within ` +
          `${OUTBOX_SWEEP_MS / 1000} s): ${String(error)}`,
      );
      return false;
    }
  }

  /** Deletes a debate that was never public: nothing to announce. */
  forget(document: SavedDebateDocument): Promise<void> {
    return document.pendingEvent
      ? this.debates.settle(document._id, document.pendingEvent, true)
      : Promise.resolve();
  }

  /** Announces every event owed for longer than the grace period; how many were owed. */
  async sweep(): Promise<number> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = (async () => {
      try {
        const owed = await this.debates.pending(new Date(Date.now() - OUTBOX_GRACE_MS), 100);
        for (const document of owed) await this.announce(document);
        return owed.length;
      } catch (error) {
        this.logger.warn(`Could not read the debates' outbox: ${String(error)}`);
        return 0;
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }
}
