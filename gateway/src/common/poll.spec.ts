import { describe, expect, it, jest } from '@jest/globals';
import { pollEvery } from './poll.js';

describe('pollEvery', () => {
  it('yields at once, then once per interval', async () => {
    let calls = 0;
    const produce = jest.fn(async () => ++calls);
    const iterator = pollEvery(20, produce, new AbortController().signal);
    const started = Date.now();
    expect(await iterator.next()).toEqual({ done: false, value: 1 });
    expect(await iterator.next()).toEqual({ done: false, value: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    await iterator.return?.();
  });

  it('stops during a pause when the subscriber leaves, without producing again', async () => {
    const produce = jest.fn(async () => 'snapshot');
    const iterator = pollEvery(60_000, produce, new AbortController().signal);
    await iterator.next();
    const pending = iterator.next();
    await iterator.return?.();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(produce).toHaveBeenCalledTimes(1);
  });

  it('stops when the owner signals shutdown', async () => {
    const shutdown = new AbortController();
    const produce = jest.fn(async () => 'snapshot');
    const iterator = pollEvery(60_000, produce, shutdown.signal);
    await iterator.next();
    const pending = iterator.next();
    shutdown.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(produce).toHaveBeenCalledTimes(1);
  });
});
