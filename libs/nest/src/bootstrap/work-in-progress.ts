/**
 * Work a process has taken and not finished, and a bounded wait for all of it to end: what a
 * stopping service drains (the requests it took, the debates it is running).
 */
export class WorkInProgress<T> {
  private readonly items = new Set<T>();
  private readonly idle: Array<() => void> = [];

  values(): IterableIterator<T> {
    return this.items.values();
  }

  add(item: T): void {
    this.items.add(item);
  }

  delete(item: T): void {
    if (this.items.delete(item) && this.items.size === 0) {
      for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /** Resolves once nothing is in progress, or after `timeoutMs` whatever is left. */
  whenIdle(timeoutMs: number): Promise<void> {
    if (this.items.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
