/**
 * A sliding-window limit per key, in memory: at most `limit` recorded events in any `windowMs`.
 * (Per gateway instance; several instances would share it through Redis.)
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const recent = (this.hits.get(key) ?? []).filter((time) => time > since);
    if (recent.length > 0) this.hits.set(key, recent);
    else this.hits.delete(key);
    return recent;
  }

  /** Whether `key` is under its limit now. */
  allows(key: string): boolean {
    return this.recent(key).length < this.limit;
  }

  /** Counts one event for `key`. */
  record(key: string): void {
    this.hits.set(key, [...this.recent(key), this.now()]);
  }
}
