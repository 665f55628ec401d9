import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Runs every test of the calling file on vitest's fake timers, the clock starting at 0, and
 * restores the real timers after each test. Time in these tests only moves when a test advances
 * it (`vi.advanceTimersByTimeAsync`, `vi.runAllTimersAsync`), so waits, back-offs and overlaps
 * are exact and no test reads the real clock.
 *
 * Call it once at the top level of a test file.
 *
 * @example
 * ```ts
 * useFakeClock();
 *
 * it('waits 100 ms', async () => {
 *   const done = trackPromise(abortableDelay(100));
 *   await vi.advanceTimersByTimeAsync(100);
 *   expect(done.status).toBe('resolved');
 * });
 * ```
 */
export function useFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/**
 * The fake clock's time in ms: what a tool in these tests reads to note when it started or
 * ended. Throws outside fake timers, so a test can never measure real time by mistake.
 *
 * @example
 * ```ts
 * const started = fakeNow();
 * await vi.advanceTimersByTimeAsync(40);
 * expect(fakeNow() - started).toBe(40);
 * ```
 * @see useFakeClock
 */
export function fakeNow(): number {
  // While fake timers run, `Date` is the fake clock's (`isFake`) and `Date.now()` its time, read
  // without building the `Date` that `vi.getMockedSystemTime()` would (tools read it thousands
  // of times).
  const fake = vi.isFakeTimers() && (Date as { isFake?: boolean }).isFake === true;
  if (!fake) throw new Error('fakeNow() reads the fake clock: call useFakeClock() first');
  return Date.now();
}
