import { Observable } from 'rxjs';

/** What a watched run's instance said when asked after a silence. */
export type InstanceProbe = 'answered' | 'unreachable';

export interface RunLivenessOptions {
  /** How long the run may be silent before its instance is asked whether it is still there. */
  readonly silenceMs: number;
  /** The asks in a row left unanswered after which the run counts as lost. */
  readonly unansweredAsks: number;
  /** The wait between two asks left unanswered. */
  readonly retryMs: number;
}

/**
 * A watched run lives in the memory of one generation instance, and its events come from there
 * alone: an instance that dies (killed, its machine lost) sends no error, its events just stop.
 * So when `events` have been silent for `silenceMs` (a turn being thought over, a person's turn
 * awaited), `ask()` whether the instance still answers; `unansweredAsks` unanswered in a row,
 * `retryMs` apart (an instance moving to another NATS server is back within about a second),
 * end the stream with `lost()`. A run that streams is never asked.
 */
export function endWhenInstanceLost<T>(
  events: Observable<T>,
  ask: () => Promise<InstanceProbe>,
  lost: () => unknown,
  options: RunLivenessOptions,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    let timer: NodeJS.Timeout | undefined;
    let unanswered = 0;
    const after = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void check(), ms);
    };
    const check = async () => {
      const answer = await ask();
      if (subscriber.closed) return;
      if (answer === 'answered') {
        unanswered = 0;
        after(options.silenceMs);
        return;
      }
      unanswered += 1;
      if (unanswered >= options.unansweredAsks) subscriber.error(lost());
      else after(options.retryMs);
    };
    const subscription = events.subscribe({
      next: (event) => {
        unanswered = 0;
        after(options.silenceMs);
        subscriber.next(event);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    after(options.silenceMs);
    return () => {
      clearTimeout(timer);
      subscription.unsubscribe();
    };
  });
}
