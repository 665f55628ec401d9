import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';

/**
 * A fresh RxJS `TestScheduler` whose `expectObservable` / `expectSubscriptions` compare with
 * vitest's deep equality, so a marble that does not match fails the test with a diff. Time
 * inside `run` is virtual: frames of 1 ms, nothing waits on the real clock.
 *
 * @example
 * ```ts
 * marbleScheduler().run(({ cold, expectObservable }) => {
 *   expectObservable(cold('a|').pipe(delay(2))).toBe('2ms a|');
 * });
 * ```
 */
export const marbleScheduler = (): TestScheduler =>
  new TestScheduler((actual, expected) => {
    expect(actual).toEqual(expected);
  });
