import { Observable } from 'rxjs';

/** What waits for the next check phase, in the order it came. */
const pending: Array<() => void> = [];

function runPending(): void {
  for (const task of pending.splice(0)) task();
}

function inCheckPhase(task: () => void): void {
  pending.push(task);
  if (pending.length === 1) setImmediate(runPending);
}

/**
 * `source`'s notifications, each passed on in the event loop's next check phase (setImmediate),
 * every stream's together and each stream's in its order. A streamed reply is published on NATS
 * from there: the pieces of every run written by the timers of one turn of the loop leave in
 * one socket write (nats.js writes once per microtask checkpoint), where each went in its own
 * write before, as each word is a timer of its own. The delay is that turn of the loop.
 */
export function passedOnInCheckPhase<T>(source: Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) =>
    source.subscribe({
      next: (value) => inCheckPhase(() => subscriber.next(value)),
      error: (error: unknown) => inCheckPhase(() => subscriber.error(error)),
      complete: () => inCheckPhase(() => subscriber.complete()),
    }),
  );
}
