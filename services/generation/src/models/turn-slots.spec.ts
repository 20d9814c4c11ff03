import { describe, expect, it } from '@jest/globals';
import { TurnSlots } from './turn-slots.js';

const never = new AbortController().signal;

describe(TurnSlots.name, () => {
  it('lets as many turns write at once as it has slots; the next waits for one to end', async () => {
    const slots = new TurnSlots(2);
    const first = await slots.acquire(never);
    const second = await slots.acquire(never);
    let thirdStarted = false;
    const third = slots.acquire(never).then((release) => {
      thirdStarted = true;
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(thirdStarted).toBe(false);
    first();
    // Giving a slot back twice frees it once.
    first();
    const releaseThird = await third;
    expect(thirdStarted).toBe(true);
    let fourthStarted = false;
    void slots.acquire(never).then(() => (fourthStarted = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fourthStarted).toBe(false);
    second();
    releaseThird();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fourthStarted).toBe(true);
  });

  it('lets a turn whose debate is stopped leave the queue, and its place go to the next', async () => {
    const slots = new TurnSlots(1);
    const held = await slots.acquire(never);
    const stopped = new AbortController();
    const leaving = slots.acquire(stopped.signal);
    const waiting = slots.acquire(never);
    stopped.abort(new Error('debate stopped'));
    await expect(leaving).rejects.toThrow('debate stopped');
    held();
    // The slot went to the turn still waiting, not to the one that left.
    const release = await waiting;
    release();
    expect(typeof (await slots.acquire(never))).toBe('function');
  });
});
