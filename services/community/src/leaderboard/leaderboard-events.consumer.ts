import { debateSharedEvent, debateUnsharedEvent } from '@debate/contracts';
import { EventLog, PinoLoggerService } from '@debate/nest';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { LeaderboardRepository } from './leaderboard.repository.js';
import { LeaderboardService } from './leaderboard.service.js';

/** The durable consumer's name: its own, so that it gets every event beside the public debates'. */
const DURABLE = 'community-leaderboard';
/** How long it waits for the public debates to apply an event before recomputing anyway. */
const APPLIED_WITHIN_MS = 30_000;
const POLL_MS = 25;

/**
 * Recomputes the leaderboard when a debate is shared or unshared. The public debates' own
 * consumer (debate-events.consumer.ts) applies the same events at its own pace: this one waits
 * until the public copy shows the event (or something later) before it asks for a recompute,
 * so that the recompute reads it.
 */
@Injectable()
export class LeaderboardEventsConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly leaderboard: LeaderboardService,
    private readonly repository: LeaderboardRepository,
    private readonly events: EventLog,
    private readonly logger: PinoLoggerService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const onProblem = (message: string) => this.logger.warn(message);
    await this.events.subscribe(
      debateSharedEvent,
      DURABLE,
      async ({ debate }) => {
        if (!debate.sharedAt) return;
        const sharedAt = new Date(debate.sharedAt);
        await this.whenApplied(debate.id, (copy) =>
          copy ? copy.sharedAt >= sharedAt || (copy.removedAt ?? 0) >= sharedAt : false,
        );
      },
      { onProblem },
    );
    await this.events.subscribe(
      debateUnsharedEvent,
      DURABLE,
      async ({ debateId, at }) => {
        const removedAt = new Date(at);
        // No copy, or one shared after it: nothing to take down.
        await this.whenApplied(
          debateId,
          (copy) => !copy || copy.sharedAt > removedAt || (copy.removedAt ?? 0) >= removedAt,
        );
      },
      { onProblem },
    );
  }

  /** Waits until `applied` holds for the debate's public copy, then asks for a recompute. */
  private async whenApplied(
    debateId: string,
    applied: (copy: { sharedAt: Date; removedAt: Date | null } | null) => boolean,
  ): Promise<void> {
    const deadline = Date.now() + APPLIED_WITHIN_MS;
    while (!applied(await this.repository.publicState(debateId)) && Date.now() < deadline) {
      await sleep(POLL_MS);
    }
    void this.leaderboard.changed();
  }
}
