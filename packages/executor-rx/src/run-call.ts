import { Observable } from 'rxjs';
import type { BatchState } from './batch-state.js';
import { CallPipeline, type EagerArrival } from './call-pipeline.js';
import type { DispatchEvent } from './dispatch-event.js';
import type { PreparedCall } from './prepared-call.js';
import { startNested } from './start-nested.js';

/** Options of {@link runCall}. */
export interface RunCallOptions {
  /** The dispatch the call belongs to (its config, slots, calls in flight, hard error). */
  readonly batch: BatchState;
  /** The call, resolved once: `batch.prepared[i]`. */
  readonly prepared: PreparedCall;
  /** Position of the call's wave, on its events; `undefined` without waves (eager, streams). */
  readonly wave: number | undefined;
  /** When the call became ready: its first `call-end`'s `waitMs` counts from here. Default: when subscribed. */
  readonly readyAt?: number;
  /** Eager mode and streams: when the call arrived and which calls it waited for. */
  readonly eager?: EagerArrival | undefined;
}

/**
 * The per-call pipeline as a cold Observable, the one every scheduler (waves, eager, streams)
 * runs: subscribing starts the call's first attempt (validate → pre hooks → wait for
 * conflicting lingering calls → fleet grant → execute with the timeout → post hooks → health
 * record → recovery, see {@link CallPipeline}); it emits the call's events (`call-start` /
 * `call-end` per attempt, and `settle-timeout` while it waits for keys) when the batch has
 * progress events, puts the result in `batch.results[prepared.index]`, and completes when the
 * call is done. It never errors: a hard error goes to the batch (`batch.failure`), which stops
 * the other calls in flight. Nothing starts when the batch has already failed. Unsubscribing
 * does not stop the call (the batch does that, through `batch.inFlight`).
 *
 * @example
 * ```ts
 * // one wave, under the cap
 * from(wave.calls).pipe(mergeMap((i) => runCall({ batch, prepared: batch.prepared[i]!, wave: w }), cap));
 * ```
 * @see CallPipeline for the stages.
 */
export function runCall(options: RunCallOptions): Observable<DispatchEvent> {
  const { batch } = options;
  return new Observable<DispatchEvent>((subscriber) => {
    if (batch.failure !== undefined) {
      subscriber.complete();
      return undefined;
    }
    const pipeline = new CallPipeline({
      batch,
      prepared: options.prepared,
      wave: options.wave,
      readyAt: options.readyAt ?? batch.now(),
      subscriber,
      eager: options.eager,
    });
    // No teardown per call: when the run is unsubscribed from, the batch abandons its calls.
    startNested(batch, subscriber, pipeline);
    return undefined;
  });
}
