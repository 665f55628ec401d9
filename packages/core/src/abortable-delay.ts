/**
 * Waits `ms` milliseconds with `setTimeout` (so fake timers drive it), or rejects with the
 * signal's reason as soon as it aborts. `ms <= 0` resolves at once.
 *
 * @example
 * ```ts
 * await abortableDelay(100, context.signal);
 * ```
 */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done, fail) => {
    if (signal.aborted) {
      fail(signal.reason);
      return;
    }
    if (ms <= 0) {
      done();
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      fail(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      done();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
