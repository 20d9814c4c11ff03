import type { Observable, Subscription } from 'rxjs';

/**
 * An Observable as the async iterator a GraphQL subscription returns. Items wait in a queue
 * until pulled; the iterator ends when the Observable completes, throws its error, and
 * unsubscribes at once when the client leaves (`return()`) or `signal` aborts.
 */
export function observableIterator<T, R>(
  source: Observable<T>,
  map: (item: T) => R,
  signal: AbortSignal,
  /**
   * Joins an item to the one queued before it, when the client is behind (undefined: keep
   * both). Nothing waits for it: only what has already piled up is joined.
   */
  join?: (earlier: R, later: R) => R | undefined,
): AsyncIterableIterator<R> {
  const queue: R[] = [];
  let waiting:
    | { resolve: (result: IteratorResult<R, undefined>) => void; reject: (error: unknown) => void }
    | undefined;
  let ended = false;
  let failure: { error: unknown } | undefined;
  const done = (): IteratorResult<R, undefined> => ({ done: true, value: undefined });

  const settle = () => {
    if (!waiting) return;
    const pending = waiting;
    if (queue.length > 0) {
      waiting = undefined;
      pending.resolve({ done: false, value: queue.shift() as R });
    } else if (failure) {
      waiting = undefined;
      pending.reject(failure.error);
    } else if (ended) {
      waiting = undefined;
      pending.resolve(done());
    }
  };

  const subscription: Subscription = source.subscribe({
    next: (item) => {
      const mapped = map(item);
      const last = queue.at(-1);
      const joined = join && last !== undefined ? join(last, mapped) : undefined;
      if (joined === undefined) queue.push(mapped);
      else queue[queue.length - 1] = joined;
      settle();
    },
    error: (error: unknown) => {
      failure = { error };
      settle();
    },
    complete: () => {
      ended = true;
      settle();
    },
  });
  const stop = () => {
    subscription.unsubscribe();
    ended = true;
    queue.length = 0;
    settle();
  };
  signal.addEventListener('abort', stop, { once: true });

  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next(): Promise<IteratorResult<R, undefined>> {
      if (queue.length > 0) return Promise.resolve({ done: false, value: queue.shift() as R });
      if (failure) {
        const { error } = failure;
        failure = undefined;
        ended = true;
        return Promise.reject(error);
      }
      if (ended) return Promise.resolve(done());
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    async return(): Promise<IteratorResult<R, undefined>> {
      stop();
      signal.removeEventListener('abort', stop);
      return done();
    },
  };
}
