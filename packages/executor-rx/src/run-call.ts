import { Observable } from 'rxjs';
import type { BatchState } from './batch-state.js';
import { type CallContext, CallPipeline } from './call-pipeline.js';
import type { DispatchEvent } from './dispatch-event.js';
import type { PreparedCall } from './prepared-call.js';
import { startNested } from './start-nested.js';

export type { CallContext, EagerArrival } from './call-pipeline.js';

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
 * const context: CallContext = { batch, wave: w, readyAt: batch.now() };
 * from(wave.calls).pipe(mergeMap((i) => runCall(batch.prepared.call(i), context), cap));
 * ```
 * @see CallPipeline for the stages.
 */
export function runCall(prepared: PreparedCall, context: CallContext): Observable<DispatchEvent> {
  const { batch } = context;
  return new Observable<DispatchEvent>((subscriber) => {
    if (batch.failure !== undefined) {
      subscriber.complete();
      return undefined;
    }
    const skip = batch.gate?.verdict(prepared.index);
    if (skip !== undefined) {
      const { call, index, toolName } = prepared;
      batch.answered(index, {
        toolCallId: call.id,
        toolName,
        content: skip.content,
        isError: true,
        durationMs: 0,
      });
      if (batch.progressEvents) {
        subscriber.next({
          type: 'call-skipped',
          wave: context.wave,
          index,
          toolCallId: call.id,
          toolName,
          ...skip,
        });
      }
      subscriber.complete();
      return undefined;
    }
    const pipeline = new CallPipeline(prepared, context, subscriber);
    // No teardown per call: when the run is unsubscribed from, the batch abandons its calls.
    startNested(batch, subscriber, pipeline);
    return undefined;
  });
}
