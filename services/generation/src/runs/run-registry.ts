import {
  type BeforeApplicationShutdown,
  Injectable,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { DebateSettings } from '@debate/contracts';
import { DebateRun } from './debate-run.js';

/**
 * The runs this instance generates, kept for their life and an hour after (so a browser that
 * reconnects after the end still gets the whole debate, and the user can save it), then forgotten.
 * On shutdown, runs still going are given `drainTimeoutMs` to finish; the rest are aborted.
 */
@Injectable()
export class RunRegistry implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly runs = new Map<string, DebateRun>();
  private readonly running = new Set<DebateRun>();
  private readonly idle: Array<() => void> = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly keepAfterEndMs = 60 * 60_000,
    private readonly drainTimeoutMs = 10_000,
  ) {}

  create(runId: string, userId: string, settings?: DebateSettings): DebateRun {
    if (this.runs.has(runId)) throw new Error(`Run ${runId} exists`);
    const run = new DebateRun(runId, userId, settings);
    this.runs.set(runId, run);
    this.running.add(run);
    return run;
  }

  /** The run, if it is the user's. */
  find(runId: string, userId: string): DebateRun | undefined {
    const run = this.runs.get(runId);
    return run?.userId === userId ? run : undefined;
  }

  /** How many runs are going on. */
  get active(): number {
    return this.running.size;
  }

  /** Forgets the run `keepAfterEndMs` after it ended. */
  ended(run: DebateRun): void {
    this.running.delete(run);
    if (this.running.size === 0) for (const resolve of this.idle.splice(0)) resolve();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.runs.delete(run.runId);
    }, this.keepAfterEndMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Lets the runs going on finish, for up to `drainTimeoutMs`. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.running.size === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.drainTimeoutMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  onApplicationShutdown(): void {
    for (const run of this.running) run.abort.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
