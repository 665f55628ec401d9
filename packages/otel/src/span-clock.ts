import type { HrTime } from '@opentelemetry/api';

/**
 * The time of one dispatch's spans: the wall clock (`Date.now()`) read once when the dispatch
 * starts, advanced by the monotonic `performance.now()` — the way the SDK times a span, with one
 * anchor for the whole dispatch, so that its spans line up with each other and the durations in
 * its metrics are exactly the spans' durations. Times go to the SDK as `HrTime`, which it takes
 * as they are.
 *
 * @example
 * ```ts
 * const clock = new SpanClock();
 * const start = clock.now();
 * span.end(clock.hrTime(clock.now()));
 * ```
 */
export class SpanClock {
  readonly #anchor = Date.now() - performance.now();

  /** Epoch time in ms, fractional. */
  now(): number {
    return this.#anchor + performance.now();
  }

  /** An epoch time in ms as `[seconds, nanoseconds]`. */
  hrTime(ms: number): HrTime {
    const seconds = Math.floor(ms / 1000);
    const nanos = Math.round((ms - seconds * 1000) * 1e6);
    return nanos >= 1e9 ? [seconds + 1, nanos - 1e9] : [seconds, nanos];
  }
}
