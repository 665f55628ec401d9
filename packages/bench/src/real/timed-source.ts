import type { ToolCall } from '@toolwaves/core';

/** Options of {@link timedSource}. */
export interface TimedSourceOptions {
  readonly calls: readonly ToolCall[];
  /** When each call is yielded, ms after `start` (non-decreasing). */
  readonly arrivalMs: readonly number[];
  /** A monotonic clock in ms. */
  readonly clock: () => number;
  /** The clock's reading the arrivals count from. */
  readonly start: number;
}

/**
 * A stream of calls in real time, the way a model writes them: an async iterable that yields
 * each call once its arrival time has passed on `clock` (waiting with `setTimeout`), for
 * `dispatcher.dispatchStream` in the bench's real streamed runs.
 *
 * @example
 * for await (const call of timedSource({ calls, arrivalMs: [10, 20], clock: () => performance.now(), start: performance.now() })) { ... }
 */
export async function* timedSource(options: TimedSourceOptions): AsyncGenerator<ToolCall> {
  for (let call = 0; call < options.calls.length; call++) {
    const due = options.start + options.arrivalMs[call]!;
    // Timers run in whole milliseconds: wait again until the clock has really reached it.
    for (let wait = due - options.clock(); wait > 0; wait = due - options.clock()) {
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
    }
    yield options.calls[call]!;
  }
}
