/** A promise's state, readable synchronously: see {@link trackPromise}. */
export interface TrackedPromise<T> {
  status: 'pending' | 'resolved' | 'rejected';
  value: T | undefined;
  error: unknown;
}

/**
 * Follows a promise so a test can read its state synchronously after advancing fake time,
 * without awaiting it (which would wait for real time that never passes).
 *
 * @example
 * ```ts
 * const result = trackPromise(dispatcher.dispatch(calls));
 * await vi.advanceTimersByTimeAsync(100);
 * expect(result.status).toBe('resolved');
 * ```
 */
export function trackPromise<T>(promise: Promise<T>): TrackedPromise<T> {
  const tracked: TrackedPromise<T> = { status: 'pending', value: undefined, error: undefined };
  promise.then(
    (value) => {
      tracked.status = 'resolved';
      tracked.value = value;
    },
    (error: unknown) => {
      tracked.status = 'rejected';
      tracked.error = error;
    },
  );
  return tracked;
}
