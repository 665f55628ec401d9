import { Observable } from 'rxjs';
import type { BatchRun } from './batch-run.js';
import { CallRun } from './call-run.js';
import type { DispatchEvent } from './dispatch-event.js';
import { startNested } from './start-nested.js';

/**
 * The per-call pipeline, the same in both modes, as an Observable of the call's events: for
 * each attempt, `call-start`, then validate input → pre hooks → execute (with the timeout,
 * racing cancellation) → post hooks → health record → recovery, then `call-end`. The result
 * goes to the call's slot in the batch; the Observable completes when the call is done and
 * never errors (a hard error goes to the batch, which stops the other calls in flight).
 * Nothing starts when the batch has already failed. While it runs the call is in the batch's
 * `inFlight` set, through which the batch stops it (hard error) or abandons it (unsubscribed).
 *
 * @see CallRun for the call's state and the stages of its pipeline.
 */
export function runCall(batch: BatchRun, index: number, wave: number): Observable<DispatchEvent> {
  return new Observable<DispatchEvent>((subscriber) => {
    if (batch.failure !== undefined) {
      subscriber.complete();
      return undefined;
    }
    // No teardown per call: when the run is unsubscribed from, the batch abandons its calls.
    startNested(batch, subscriber, new CallRun(batch, index, wave, subscriber));
    return undefined;
  });
}
