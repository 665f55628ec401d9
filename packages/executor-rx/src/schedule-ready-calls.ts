import type { ToolCall } from '@toolwaves/core';
import { dependencies, type LimitWeights } from '@toolwaves/planner';
import { catchError, EMPTY, from, identity, map, merge, type Observable } from 'rxjs';
import { errorMessage } from './attempt-answer.js';
import type { BatchSchedule, ScheduledBatch } from './call-batch.js';
import { DispatchError } from './dispatch-error.js';
import type { BatchStartEvent, DispatchEvent } from './dispatch-event.js';
import { holdSideEffects, type SideEffectHold } from './hold-side-effects.js';
import { runCall } from './run-call.js';
import { type EagerCall, scheduleEager } from './schedule-eager.js';
import { StreamArrivals } from './stream-arrivals.js';
import { captureSubmitterContext, type SubmitterContext } from './submitter-context.js';

// A batch without waves (eager mode, streams, turns), one schedule of the batch shell
// (`runBatch`); the other is the plan's waves (`scheduleWaves`).

/** The ready queue: each call starts once its dependencies have ended and a slot is free. */
export function scheduleReadyCalls(
  batch: ScheduledBatch,
  source: Observable<ToolCall> | undefined,
): BatchSchedule {
  const { mode, priority } = batch.dispatch;
  const sequential = mode === 'sequential';
  const start: BatchStartEvent = {
    type: 'batch-start',
    mode: sequential ? 'sequential' : 'eager',
    maxConcurrency: batch.cap,
    callCount: source === undefined ? batch.calls.length : undefined,
    plan: undefined,
    explanation: [],
  };
  let calls: Observable<EagerCall<DispatchEvent>>;
  // `whileStreaming: 'read-only'`: what may not start before the message is complete is held.
  let hold: SideEffectHold<ReadyCall> | undefined;
  // Per call, its dependencies by the rules (the failure policy's), as the schedule learns them.
  let rules: (readonly number[])[];
  if (source === undefined) {
    rules = dependencies(batch.prepared.nodes());
    calls = from(
      batch.calls.map(
        (_, index) => new ReadyCall(batch, index, rules[index]!, batch.startedAt, batch.submitter),
      ),
    );
  } else {
    rules = [];
    const arrivals = new StreamArrivals({
      calls: batch.calls,
      repeats: batch.repeats,
      nodeOf: (index) => batch.prepared.node(index),
      edgesOf: (index) => batch.prepared.edges(index),
      sequential,
      rulesWanted: batch.dispatch.onFailure !== 'continue',
    });
    hold =
      batch.dispatch.whileStreaming === 'read-only' ? holdSideEffects<ReadyCall>(batch) : undefined;
    calls = source.pipe(
      map((call) => {
        const arrival = arrivals.arrive(call);
        if (arrival.rules !== undefined) rules[arrival.index] = arrival.rules;
        // Each arriving call runs in the context it was emitted in (a turn's: `turn.run`'s).
        return new ReadyCall(
          batch,
          arrival.index,
          arrival.waits,
          batch.config.scheduler.now(),
          captureSubmitterContext(),
        );
      }),
      // Before the source's failure is handled: a failing source releases nothing.
      hold?.calls ?? identity,
      catchError((cause: unknown) => {
        // A call's wrong limit declaration stays what it is (`invalid_config`).
        const error =
          cause instanceof DispatchError &&
          (cause.code === 'source_failed' || cause.code === 'invalid_config')
            ? cause
            : new DispatchError({
                code: 'source_failed',
                message: `The stream of tool calls failed: ${errorMessage(cause)}`,
                cause,
              });
        batch.stop(error);
        return EMPTY;
      }),
    );
  }
  const scheduled = calls.pipe(
    scheduleEager<DispatchEvent>({
      maxConcurrency: batch.cap,
      priority,
      limits: batch.config.limits?.local,
    }),
  );
  return {
    start,
    // The answers first: a stop while the schedule is being subscribed reaches them.
    events: hold === undefined ? scheduled : merge(hold.answers, scheduled),
    dependenciesOf: (index) => rules[index]!,
    waveCount: undefined,
    hold,
  };
}

/** A call for the ready queue (a class: its `run` is not made per call). */
class ReadyCall implements EagerCall<DispatchEvent> {
  readonly estimateMs: number | undefined;
  readonly limits: LimitWeights | undefined;

  constructor(
    readonly batch: ScheduledBatch,
    readonly index: number,
    readonly dependencies: readonly number[],
    readonly arrivedAt: number,
    readonly submitter: SubmitterContext,
  ) {
    this.estimateMs = batch.prepared.node(index).estimateMs;
    this.limits =
      batch.config.limits === undefined ? undefined : batch.prepared.limits(index).local;
  }

  run(waitedFor: readonly number[], limitWaits?: readonly string[]): Observable<DispatchEvent> {
    const { batch, index, arrivedAt, submitter } = this;
    return runCall(batch, batch.prepared.call(index), {
      wave: undefined,
      readyAt: arrivedAt,
      arrivedAt,
      waitedFor,
      limitWaits,
      submitter,
    });
  }
}
