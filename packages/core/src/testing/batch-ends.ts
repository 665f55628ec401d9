import type { BatchEndInfo, Instrumentation } from '../instrumentation.js';

/** What {@link batchEnds} returns: an instrumentation, and the ends it saw. */
export interface BatchEnds {
  /** Give it to the Dispatcher (`instrumentation` option). */
  readonly instrumentation: Instrumentation;
  /** Every batch end seen so far (a turn's batch ends when the turn is closed and settled). */
  readonly ended: readonly BatchEndInfo[];
  /** Resolves when `count` batches have ended in all (at once if they already have). */
  until(count: number): Promise<void>;
}

/**
 * An instrumentation that only records when batches end: a test's way to know a dispatch, a
 * stream or a turn has settled completely (every call answered or cancelled, nothing left to
 * start), without waiting on a clock.
 *
 * @example
 * ```ts
 * const batches = batchEnds();
 * const dispatcher = new Dispatcher({ registry, instrumentation: batches.instrumentation });
 * // ... a framework runs a turn ...
 * await batches.until(1);
 * expect(batches.ended[0]?.outcome).toBe('ok');
 * ```
 * @see ToolGates, to hold a batch's calls at gates the test opens.
 */
export function batchEnds(): BatchEnds {
  const ended: BatchEndInfo[] = [];
  const waiting: { readonly count: number; readonly resolve: () => void }[] = [];
  const instrumentation: Instrumentation = {
    startBatch: () => ({
      startAttempt: () => ({ granted: () => undefined, run: (fn) => fn(), end: () => undefined }),
      end: (info) => {
        ended.push(info);
        for (const wait of waiting.filter((entry) => entry.count <= ended.length)) {
          waiting.splice(waiting.indexOf(wait), 1);
          wait.resolve();
        }
      },
    }),
  };
  return {
    instrumentation,
    ended,
    until: (count) =>
      count <= ended.length
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiting.push({ count, resolve });
          }),
  };
}
