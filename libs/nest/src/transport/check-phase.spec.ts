import { describe, expect, it } from '@jest/globals';
import { Subject, toArray, firstValueFrom } from 'rxjs';
import { passedOnInCheckPhase } from './check-phase.js';

describe('passedOnInCheckPhase', () => {
  it("passes every stream's items on together in the next check phase, each stream in order", async () => {
    const a = new Subject<string>();
    const b = new Subject<string>();
    const seen: string[] = [];
    const done = Promise.all([
      firstValueFrom(passedOnInCheckPhase(a).pipe(toArray())),
      firstValueFrom(passedOnInCheckPhase(b).pipe(toArray())),
    ]);
    passedOnInCheckPhase(a).subscribe((value) => seen.push(`a:${value}`));
    passedOnInCheckPhase(b).subscribe((value) => seen.push(`b:${value}`));
    // Two timers of one turn of the loop: nothing is passed on between them.
    const between: string[][] = [];
    await new Promise<void>((resolve) => {
      setTimeout(() => {
        a.next('1');
        b.next('1');
      }, 1);
      setTimeout(() => {
        between.push([...seen]);
        a.next('2');
        b.next('2');
        a.complete();
        b.complete();
        resolve();
      }, 1);
    });
    expect(between).toEqual([[]]);
    expect(seen).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['a:1', 'b:1', 'a:2', 'b:2']);
    expect(await done).toEqual([
      ['1', '2'],
      ['1', '2'],
    ]);
  });

  it('passes an error on after the items before it', async () => {
    const source = new Subject<number>();
    const seen: unknown[] = [];
    passedOnInCheckPhase(source).subscribe({
      next: (value) => seen.push(value),
      error: (error: unknown) => seen.push((error as Error).message),
    });
    source.next(1);
    source.error(new Error('gone'));
    expect(seen).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([1, 'gone']);
  });

  it('passes nothing on to a subscriber that left', async () => {
    const source = new Subject<number>();
    const seen: number[] = [];
    const subscription = passedOnInCheckPhase(source).subscribe((value) => seen.push(value));
    source.next(1);
    subscription.unsubscribe();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([]);
  });
});
