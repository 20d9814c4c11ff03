import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Subject } from 'rxjs';
import { endWhenInstanceLost, type InstanceProbe } from './run-liveness.js';

const options = { silenceMs: 40, unansweredAsks: 3, retryMs: 10 };
/** Lets `ms` pass on the fake clock, each ask's answer settling on the way. */
const sleep = async (ms: number) => {
  await jest.advanceTimersByTimeAsync(ms);
};

/** Follows `events` through the operator, `answers` being what each ask answers in turn. */
function follow(events: Subject<string>, answers: InstanceProbe[]) {
  const seen: string[] = [];
  let asks = 0;
  let failure: unknown;
  let completed = false;
  const subscription = endWhenInstanceLost(
    events,
    async () => answers[Math.min(asks++, answers.length - 1)] ?? 'answered',
    () => new Error('lost'),
    options,
  ).subscribe({
    next: (event) => seen.push(event),
    error: (error: unknown) => (failure = error),
    complete: () => (completed = true),
  });
  return {
    seen,
    subscription,
    asks: () => asks,
    failure: () => (failure instanceof Error ? failure.message : failure),
    completed: () => completed,
  };
}

describe('endWhenInstanceLost', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('never asks while the run streams', async () => {
    const events = new Subject<string>();
    const watched = follow(events, ['unreachable']);
    for (let i = 0; i < 10; i += 1) {
      events.next(String(i));
      await sleep(10);
    }
    events.complete();
    await sleep(80);
    expect(watched.asks()).toBe(0);
    expect(watched.seen).toHaveLength(10);
    expect(watched.completed()).toBe(true);
  });

  it('ends a silent run whose instance leaves three asks in a row unanswered', async () => {
    const events = new Subject<string>();
    const watched = follow(events, ['unreachable']);
    events.next('a');
    await sleep(40 + 10 + 10);
    expect(watched.asks()).toBe(3);
    expect(watched.failure()).toBe('lost');
    expect(watched.seen).toEqual(['a']);
    // Nothing more is asked once it has ended.
    await sleep(60);
    expect(watched.asks()).toBe(3);
  });

  it('keeps a silent run whose instance answers, asking again after each silence', async () => {
    const events = new Subject<string>();
    const watched = follow(events, ['answered']);
    await sleep(4 * 40);
    expect(watched.asks()).toBe(4);
    expect(watched.failure()).toBeUndefined();
    events.next('still here');
    expect(watched.seen).toEqual(['still here']);
    watched.subscription.unsubscribe();
  });

  it('keeps a run whose instance answers again before the third ask (it moved servers)', async () => {
    const events = new Subject<string>();
    const watched = follow(events, ['unreachable', 'unreachable', 'answered']);
    await sleep(40 + 10 + 10);
    expect(watched.asks()).toBe(3);
    expect(watched.failure()).toBeUndefined();
    watched.subscription.unsubscribe();
  });

  it('stops asking once the watcher leaves', async () => {
    const events = new Subject<string>();
    const watched = follow(events, ['unreachable']);
    watched.subscription.unsubscribe();
    await sleep(100);
    expect(watched.asks()).toBe(0);
  });
});
