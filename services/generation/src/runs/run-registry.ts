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
 * reconnects after the end still gets the whole debate, and the user can save it), then forgotten;
 * a user's latest saveable run stays until their next (at most a week): nothing generated is
 * lost to a reload. Kept in memory: a restart of the instance forgets them.
 * On shutdown, runs still going are given `drainTimeoutMs` to finish; the rest are aborted.
 */
@Injectable()
export class RunRegistry implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly runs = new Map<string, DebateRun>();
  private readonly running = new WorkInProgress<DebateRun>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly expiry = new Map<DebateRun, NodeJS.Timeout>();
  /** Each user's latest saveable run (completed, or stopped after a complete turn). */
  private readonly latest = new Map<string, DebateRun>();

  constructor(
    private readonly keepAfterEndMs = 60 * 60_000,
    private readonly drainTimeoutMs = 10_000,
    private readonly keepLatestMs = 7 * 24 * 60 * 60_000,
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

  /**
   * Forgets the run `keepAfterEndMs` after it ended; but a user's latest saveable run is kept
   * until their next one completes (at most `keepLatestMs`), so that it can still be shown
   * again and saved after a reload, however long the user takes.
   */
  ended(run: DebateRun): void {
    this.running.delete(run);
    if (!run.saveable) {
      this.forget(run, this.keepAfterEndMs);
      return;
    }
    const previous = this.latest.get(run.userId);
    this.latest.set(run.userId, run);
    if (previous) this.forget(previous, this.keepAfterEndMs);
    this.forget(run, this.keepLatestMs);
  }

  /** Forgets `run` in `ms`, unless it is forgotten sooner (its earlier timer replaced). */
  private forget(run: DebateRun, ms: number): void {
    const earlier = this.expiry.get(run);
    if (earlier) {
      clearTimeout(earlier);
      this.timers.delete(earlier);
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.expiry.delete(run);
      this.runs.delete(run.runId);
      if (this.latest.get(run.userId) === run) this.latest.delete(run.userId);
    }, ms);
    timer.unref();
    this.timers.add(timer);
    this.expiry.set(run, timer);
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
