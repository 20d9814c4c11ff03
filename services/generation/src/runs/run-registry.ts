import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { DebateSettings } from '@debate/contracts';
import { DebateRun } from './debate-run.js';

/**
 * The runs this instance generates, kept for their life and an hour after (so a browser that
 * reconnects after the end still gets the whole debate, and the user can save it), then forgotten.
 */
@Injectable()
export class RunRegistry implements OnApplicationShutdown {
  private readonly runs = new Map<string, DebateRun>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly keepAfterEndMs = 60 * 60_000) {}

  create(runId: string, userId: string, settings?: DebateSettings): DebateRun {
    if (this.runs.has(runId)) throw new Error(`Run ${runId} exists`);
    const run = new DebateRun(runId, userId, settings);
    this.runs.set(runId, run);
    return run;
  }

  /** The run, if it is the user's. */
  find(runId: string, userId: string): DebateRun | undefined {
    const run = this.runs.get(runId);
    return run?.userId === userId ? run : undefined;
  }

  /** Forgets the run `keepAfterEndMs` after it ended. */
  ended(run: DebateRun): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.runs.delete(run.runId);
    }, this.keepAfterEndMs);
    timer.unref();
    this.timers.add(timer);
  }

  onApplicationShutdown(): void {
    for (const run of this.runs.values()) run.abort.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
