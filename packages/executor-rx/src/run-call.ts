import type { AttemptEndInfo } from '@toolwaves/core';
import { Observable, Subscriber, type Subscription } from 'rxjs';
import { Attempt, AttemptContext, startAttempt } from './attempt.js';
import { errorMessage } from './attempt-answer.js';
import { attemptStages, type Concluded } from './attempt-stages.js';
import type { BatchStop, CallBatch, CallPlace } from './call-batch.js';
import { repeatedCallEvents } from './call-ids.js';
import { DispatchError } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';
import type { PreparedCall } from './prepared-call.js';

/** How an attempt stopped by its batch (a cancel, a hard error elsewhere) ends. */
const STOPPED: AttemptEndInfo = { outcome: 'cancelled', retried: false };

// One call as a cold Observable (every mode): its events, completing after the final `call-end`
// (with its result) or `call-skipped`; a hard error is an `error`; the batch's stop or an
// unsubscribe ends it, a tool still running outliving it until it settles.
export function runCall(
  batch: CallBatch,
  prepared: PreparedCall,
  place: CallPlace,
): Observable<DispatchEvent> {
  return new Observable<DispatchEvent>((subscriber) => {
    if (batch.failure !== undefined) return subscriber.complete();
    const { repeatOf } = prepared;
    if (repeatOf !== undefined) {
      const { call, index } = prepared;
      const now = batch.config.scheduler.now();
      return repeatedCallEvents({ call, index, firstIndex: repeatOf, place, now }).subscribe(
        subscriber,
      );
    }
    const skip = batch.gate?.verdict(prepared.index);
    if (skip === undefined) return new CallAttempts(batch, place, subscriber).start(prepared);
    const { call, index, toolName } = prepared;
    const result = { toolCallId: call.id, toolName, content: skip.content, isError: true };
    const slot = { ...result, durationMs: 0 };
    // The instrumentation sees a skipped call as an attempt that ended at once, never run.
    const end = { outcome: 'error', errorKind: 'skipped', result: slot, retried: false } as const;
    const { waitedFor, submitter } = place;
    startAttempt({ batch, prepared, attempt: 1, waitedFor, submitter })?.end(end);
    subscriber.next({
      type: 'call-skipped',
      wave: place.wave,
      index,
      toolCallId: call.id,
      toolName,
      ...skip,
      result: slot,
    });
    subscriber.complete();
  });
}

// The attempts of one call, one after another, until one concludes for good: a subscriber of the
// batch's stops, and a finalizer of the call's subscriber (a class: no closures made per call).
class CallAttempts extends Subscriber<BatchStop> {
  #attempt: Attempt | undefined;
  /** The current attempt's stages, or the back-off before the next one. */
  #work: Subscription | undefined;
  #ended = false;

  constructor(
    private readonly batch: CallBatch,
    private readonly place: CallPlace,
    private readonly subscriber: Subscriber<DispatchEvent>,
  ) {
    super();
  }

  start(prepared: PreparedCall): void {
    this.batch.stops.subscribe(this);
    // Registered before the first attempt: unsubscribed inside a synchronous stage, it stops there.
    this.subscriber.add(this);
    this.#begin(prepared, 1, this.place.readyAt);
  }

  #begin(prepared: PreparedCall, number: number, readyAt: number): void {
    const attempt = new Attempt({
      batch: this.batch,
      place: this.place,
      prepared,
      attempt: number,
      readyAt,
      events: this.subscriber,
    });
    this.#attempt = attempt;
    // Made before it is subscribed: a stop during a synchronous stage (a pre hook that cancels)
    // closes the stages at once, and the next stage never runs.
    const work = new AttemptWork(this, attempt);
    this.#work = work;
    attemptStages(attempt).subscribe(work);
  }

  concluded(attempt: Attempt, concluded: Concluded): void {
    const { answer } = concluded;
    if (concluded.action === 'finish') {
      const result = attempt.resultOf(answer, concluded.content);
      attempt.endInstrument(
        answer.isError
          ? { outcome: 'error', result, errorKind: answer.kind, retried: false }
          : { outcome: 'ok', result, retried: false },
      );
      const outcome = answer.isError ? 'error' : 'ok';
      attempt.endEvent(outcome, concluded.content, result.durationMs, result);
      this.#end();
      this.subscriber.complete();
      return;
    }
    const result = attempt.resultOf(answer, answer.content);
    attempt.endInstrument({ outcome: 'error', result, errorKind: answer.kind, retried: true });
    attempt.endEvent('retry', answer.content, attempt.durationMs);
    if (this.#ended) return;
    const prepared =
      concluded.correction === undefined
        ? attempt.prepared
        : attempt.prepared.corrected(concluded.correction);
    const readyAt = attempt.now();
    const next = attempt.number + 1;
    if (concluded.delayMs === 0) {
      this.#begin(prepared, next, readyAt);
      return;
    }
    this.#work = this.batch.config.scheduler.schedule(
      () => this.#begin(prepared, next, readyAt),
      concluded.delayMs,
    );
  }

  /** The call raised the batch's hard error: its `call-end`, the others stopped, then `error`. */
  failed(attempt: Attempt, error: unknown): void {
    const code = error instanceof DispatchError ? error.code : 'aborted';
    attempt.endInstrument({ outcome: 'error', errorKind: code, retried: false });
    if (!attempt.open) attempt.emitStart();
    attempt.endEvent('hard-error', errorMessage(error), attempt.now() - attempt.beganAt);
    if (this.#ended) return;
    AttemptContext.abort(attempt.context, error);
    this.#end();
    if (error instanceof DispatchError) this.batch.fail(error);
    this.subscriber.error(error);
  }

  /** The batch stopped: the open attempt ends with the outcome; the call completes. */
  protected override _next(stop: BatchStop): void {
    if (this.#ended) return;
    const attempt = this.#attempt;
    if (attempt !== undefined) {
      attempt.endInstrument(STOPPED);
      attempt.endEvent(stop.outcome, undefined, attempt.now() - attempt.beganAt);
      AttemptContext.abort(attempt.context, stop.error);
    }
    this.#end();
    this.subscriber.complete();
  }

  /** Unsubscribed from before the call ended: it stops quietly. */
  override unsubscribe(): void {
    if (this.#ended) return;
    const attempt = this.#attempt;
    if (attempt !== undefined) {
      attempt.endInstrument(STOPPED);
      AttemptContext.abort(attempt.context, this.batch.failure);
    }
    this.#end();
  }

  #end(): void {
    this.#ended = true;
    super.unsubscribe(); // no longer listens to the batch's stops
    this.#work?.unsubscribe();
    this.#work = undefined;
  }
}

/** An attempt's stages' subscriber (a class: no closures made per attempt). */
class AttemptWork extends Subscriber<Concluded> {
  constructor(
    readonly calls: CallAttempts,
    readonly attempt: Attempt,
  ) {
    super();
  }

  protected override _next(concluded: Concluded): void {
    this.calls.concluded(this.attempt, concluded);
  }

  protected override _error(error: unknown): void {
    this.calls.failed(this.attempt, error);
    this.unsubscribe();
  }
}
