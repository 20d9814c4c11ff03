import {
  type BeforeApplicationShutdown,
  Injectable,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { DebateSettings } from '@debate/contracts';
import { WorkInProgress } from '@debate/nest';
import { DebateRun } from './debate-run.js';

/**
 * The runs this instance generates, kept for their life and an hour after (so a browser that
 * reconnects after the end still gets the whole debate, and the user can save it), then forgotten.
 * On shutdown, runs still going are given `drainTimeoutMs` to finish; the rest are aborted.
 */
@Injectable()
export class RunRegistry implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly runs = new Map<string, DebateRun>();
  private readonly running = new WorkInProgress<DebateRun>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly keepAfterEndMs = 60 * 60_000,
    private readonly drainTimeoutMs = 10_000,
  ) {}

  create(
    runId: string,
    userId: string,
    settings?: DebateSettings,
    rematchOf: string | null = null,
  ): DebateRun {
    if (this.runs.has(runId)) throw new Error(`Run ${runId} exists`);
    const run = new DebateRun(runId, userId, settings, rematchOf);
    this.runs.set(runId, run);
    this.running.add(run);
    return run;
  }

  /** The run, if it is the user's. */
  find(runId: string, userId: string): DebateRun | undefined {
    const run = this.runs.get(runId);
    return run?.userId === userId ? run : undefined;
  }

  /** Forgets the run `keepAfterEndMs` after it ended. */
  ended(run: DebateRun): void {
    this.running.delete(run);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.runs.delete(run.runId);
    }, this.keepAfterEndMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Lets the runs going on finish, for up to `drainTimeoutMs`. */
  beforeApplicationShutdown(): Promise<void> {
    return this.running.whenIdle(this.drainTimeoutMs);
  }

  onApplicationShutdown(): void {
    for (const run of this.running.values()) run.abort.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
