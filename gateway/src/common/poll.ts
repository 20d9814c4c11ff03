import { setTimeout as sleep } from 'node:timers/promises';

/**
 * An async iterator that yields `produce()` now and then every `intervalMs`, for a GraphQL
 * subscription. Unlike an async generator, `return()` (the client unsubscribed) takes effect at
 * once: the pending pause is cancelled and `produce` is not called again. `signal` ends it too,
 * so that a closing gateway does not keep polling.
 */
export function pollEvery<T>(
  intervalMs: number,
  produce: () => Promise<T>,
  signal: AbortSignal,
): AsyncIterableIterator<T> {
  const unsubscribed = new AbortController();
  const stopped = AbortSignal.any([unsubscribed.signal, signal]);
  const done = (): IteratorReturnResult<undefined> => ({ done: true, value: undefined });
  let first = true;

  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next(): Promise<IteratorResult<T, undefined>> {
      if (stopped.aborted) return done();
      if (!first) {
        try {
          await sleep(intervalMs, undefined, { signal: stopped });
        } catch {
          return done();
        }
      }
      first = false;
      const value = await produce();
      return stopped.aborted ? done() : { done: false, value };
    },
    async return(): Promise<IteratorResult<T, undefined>> {
      unsubscribed.abort();
      return done();
    },
  };
}
