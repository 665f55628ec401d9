import type { ToolCall } from '@toolwaves/core';
import { Observable } from 'rxjs';

/**
 * The calls as a stream on the fake clock: call k arrives `arrivalMs[k]` ms after subscription
 * (one timer each, so calls due at one moment arrive in model order), and the stream completes
 * with the last call. Unsubscribing clears the timers, so a source the dispatcher stopped
 * reading delivers nothing more.
 *
 * @example
 * ```ts
 * const run = record(dispatcher.runStream(arrivingCalls(calls, [0, 0, 40])));
 * await vi.runAllTimersAsync();
 * ```
 */
export const arrivingCalls = (
  calls: readonly ToolCall[],
  arrivalMs: readonly number[],
): Observable<ToolCall> =>
  new Observable<ToolCall>((subscriber) => {
    const timers = calls.map((call, k) =>
      setTimeout(() => {
        subscriber.next(call);
        if (k === calls.length - 1) subscriber.complete();
      }, arrivalMs[k]),
    );
    if (calls.length === 0) subscriber.complete();
    return () => {
      for (const timer of timers) clearTimeout(timer);
    };
  });
