import type { judgesContracts, ResponseOf } from '@debate/contracts';
import { PinoLoggerService } from '@debate/nest';
import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { computeJudgesReport } from './judges-report.js';
import { JudgesRepository } from './judges.repository.js';

type Contracts = typeof judgesContracts;

/**
 * The judges' record: recomputed in the background with the leaderboard (the leaderboard's
 * recompute calls `recompute`, so the same changes, coalesced the same way, move both), and
 * stored; a request reads the stored report, whatever replica it reaches.
 */
@Injectable()
export class JudgesService {
  constructor(
    private readonly repository: JudgesRepository,
    private readonly logger: PinoLoggerService,
  ) {}

  /** The stored report; before the first recompute, an empty one (computedAt null). */
  async report(): Promise<ResponseOf<Contracts['get']>> {
    const stored = await this.repository.report();
    if (stored) return stored;
    const empty = await computeJudgesReport([], new Date());
    return { ...empty, computedAt: null, computeMs: null };
  }

  /**
   * Recomputes the report from the judged public debates as they are now and stores it; never
   * rejects (a failed recompute is logged, and the next one tries again).
   */
  async recompute(): Promise<void> {
    try {
      const started = performance.now();
      const readAt = new Date();
      const { debates, unreadable } = await this.repository.judgedDebates();
      const report = await computeJudgesReport(debates, readAt);
      const computeMs = Math.round(performance.now() - started);
      await this.repository.save({ ...report, computeMs }, readAt);
      this.logger.log(
        `Judges' record recomputed from ${debates.length} judged public debates in ${computeMs} ms` +
          (unreadable > 0 ? ` (${unreadable} stored debates could not be read)` : ''),
      );
    } catch (error) {
      this.logger.error(`Judges' record recompute failed: ${String(error)}`);
    }
  }
}
