/**
 * How many turns a model may write at once (its catalogue entry's maxConcurrentTurns): a turn
 * takes a slot before it asks the server and gives it back when it ends; the others wait in
 * order. A turn whose debate is stopped while waiting leaves the queue.
 */
export class TurnSlots {
  private readonly waiting: Array<() => void> = [];

  constructor(private free: number) {}

  /** Resolves with the function that gives the slot back, once one is free. */
  async acquire(signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted();
    if (this.free > 0) this.free -= 1;
    else {
      await new Promise<void>((resolve, reject) => {
        const take = () => {
          signal.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          const index = this.waiting.indexOf(take);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal.reason as Error);
        };
        this.waiting.push(take);
        signal.addEventListener('abort', leave, { once: true });
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next turn waiting, or is free again.
      if (next) next();
      else this.free += 1;
    };
  }
}
