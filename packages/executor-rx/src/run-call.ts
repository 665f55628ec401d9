import type { AttemptEndInfo } from '@toolwaves/core';
import { Observable, type Subscription, type Unsubscribable } from 'rxjs';
import {
  Attempt,
  AttemptContext,
  attemptRun,
  type Concluded,
  type StagesEnd,
  startAttempt,
} from './attempt/index.js';
import { errorMessage } from './attempt-answer.js';
import type { BatchStop, CallBatch, CallPlace, CallSubscriber } from './call-batch.js';
import { repeatedCallEvents } from './call-ids.js';
import { DispatchError } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';
import { operate } from './operate.js';
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
  return new Observable<DispatchEvent>((subscriber) =>
    startCall(batch, prepared, place, subscriber),
  );
}

/**
 * Starts one call with `subscriber` as its subscriber: what subscribing to {@link runCall} does,
 * for a schedule that starts its calls itself (`cappedWave`) and so makes no Observable per call.
 */
export function startCall(
  batch: CallBatch,
  prepared: PreparedCall,
  place: CallPlace,
  subscriber: CallSubscriber,
): void {
  if (batch.failure !== undefined) {
    subscriber.complete();
    return;
  }
  const { repeatOf } = prepared;
  if (repeatOf !== undefined) {
    const { call, index } = prepared;
    const now = batch.config.scheduler.now();
    // Synchronous: it has completed the subscriber when it returns (nothing to tear down).
    repeatedCallEvents({ call, index, firstIndex: repeatOf, place, now }).subscribe(subscriber);
    return;
  }
  const skip = batch.gate?.verdict(prepared.index);
  if (skip === undefined) {
    new CallAttempts(batch, place, subscriber).start(prepared);
    return;
  }
  const { call, index, toolName } = prepared;
  const result = { toolCallId: call.id, toolName, content: skip.content, isError: true };
  const slot = { ...result, durationMs: 0 };
  // The instrumentation sees a skipped call as an attempt that ended at once, never run.
  const end = { outcome: 'error', errorKind: 'skipped', result: slot, retried: false } as const;
  const { waitedFor, submitter } = place;
  startAttempt({ batch, prepared, attempt: 1, waitedFor, submitter })?.end(end);
  const edges = prepared.edges;
  subscriber.next({
    type: 'call-skipped',
    wave: place.wave,
    index,
    toolCallId: call.id,
    toolName,
    ...skip,
    result: slot,
    ...(edges === undefined ? {} : { edges }),
  });
  subscriber.complete();
}

// The attempts of one call, one after another, until one concludes for good. It listens to the
// batch's stops, and is finalized with the call's subscriber (`operate`: tied to it first).
class CallAttempts implements StagesEnd<Attempt, Concluded>, Unsubscribable {
  #attempt: Attempt | undefined;
  /** The current attempt's stages, or the back-off before the next one. */
  #work: Unsubscribable | undefined;
  /** Its subscription to the batch's stops (tied to the call's subscriber). */
  #stops: Subscription | undefined;
  #ended = false;

  constructor(
    private readonly batch: CallBatch,
    private readonly place: CallPlace,
    private readonly subscriber: CallSubscriber,
  ) {}

  start(prepared: PreparedCall): void {
    // Tied to the call before the first attempt: unsubscribed inside a synchronous stage, it stops
    // there; unsubscribed before the call ended, the call stops quietly.
    // A batch that nothing can stop (no signal, no source, no pre hook, no recovery) never emits
    // a stop: its calls only hear their own unsubscription, through one teardown (no observer
    // tied to the call and untied again, per call; the call's attempts are that teardown).
    if (!this.batch.mayStop) {
      this.subscriber.add(this);
    } else {
      const stops = operate<BatchStop>(new BatchStops(this, this.subscriber));
      this.#stops = stops;
      this.batch.stops.subscribe(stops);
    }
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
    // Kept as the call's work before it starts: a stop during a synchronous stage (a pre hook that
    // cancels) stops the stages at once, and the next stage never runs.
    const work = attemptRun(attempt, this.subscriber, this);
    this.#work = work;
    work.start();
  }

  concluded(attempt: Attempt, concluded: Concluded): void {
    const { answer } = concluded;
    if (concluded.action === 'finish') {
      const result = attempt.resultOf(answer, concluded.content);
      // Without instrumentation (the usual case) no end info is made.
      if (attempt.instrument !== undefined) {
        attempt.endInstrument(
          answer.isError
            ? { outcome: 'error', result, errorKind: answer.kind, retried: false }
            : { outcome: 'ok', result, retried: false },
        );
      }
      const outcome = answer.isError ? 'error' : 'ok';
      attempt.endEvent(outcome, concluded.content, result.durationMs, result);
      this.#end();
      // The call's end may start the next call in this step: it begins when this answer came.
      const { clock } = this.batch;
      const answeredAt = attempt.answeredAt;
      if (answeredAt !== undefined) clock.hand(answeredAt);
      try {
        this.subscriber.complete();
      } finally {
        clock.drop();
      }
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
    // A correction may turn a read that started while the model writes into a write: held back.
    const refused = this.batch.hold?.refusedRetry(prepared);
    if (refused !== undefined) {
      this.#refused(prepared, refused);
      return;
    }
    const readyAt = attempt.now();
    const next = attempt.number + 1;
    this.#work?.unsubscribe();
    if (concluded.delayMs === 0) {
      this.#begin(prepared, next, readyAt);
      return;
    }
    this.#work = this.batch.config.scheduler.schedule(
      () => this.#begin(prepared, next, readyAt),
      concluded.delayMs,
    );
  }

  /** A corrected retry the hold refused: the call is answered with that soft error, never run. */
  #refused(prepared: PreparedCall, content: string): void {
    const { call, index, toolName } = prepared;
    const result = { toolCallId: call.id, toolName, content, isError: true, durationMs: 0 };
    this.#end();
    this.subscriber.next({
      type: 'call-skipped',
      wave: this.place.wave,
      index,
      toolCallId: call.id,
      toolName,
      reason: 'message-incomplete',
      content,
      result,
    });
    this.subscriber.complete();
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
  stopped(stop: BatchStop): void {
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

  /** The call was unsubscribed from: before it ended, it stops quietly. */
  unsubscribe(): void {
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
    this.#stops?.unsubscribe(); // no longer listens to the batch's stops
    this.#work?.unsubscribe();
    this.#work = undefined;
  }
}

/** What a call's attempts hear of the batch's stops, and of the call's unsubscription. */
class BatchStops {
  constructor(
    readonly calls: CallAttempts,
    readonly destination: Subscription,
  ) {}

  next(stop: BatchStop): void {
    this.calls.stopped(stop);
  }

  finalize(): void {
    this.calls.unsubscribe();
  }
}
