import type { ToolCall } from '@toolwaves/core';
import {
  type CallExplanation,
  dependencies,
  explainPlan,
  type Plan,
  verifyPlan,
  type Wave,
} from '@toolwaves/planner';
import {
  catchError,
  concatMap,
  EMPTY,
  from,
  map,
  mergeMap,
  Observable,
  Subscriber,
  type TeardownLogic,
} from 'rxjs';
import { errorMessage } from './attempt-answer.js';
import type { CallPlace, ScheduledBatch } from './call-batch.js';
import { DispatchError } from './dispatch-error.js';
import type { BatchStartEvent, DispatchEvent } from './dispatch-event.js';
import { runCall } from './run-call.js';
import { type EagerCall, scheduleEager } from './schedule-eager.js';
import { StreamArrivals } from './stream-arrivals.js';
import { captureSubmitterContext, type SubmitterContext } from './submitter-context.js';

// The two schedules of a batch, parameters of its one shell (`runBatch`).

/** The plan's waves one after another, each a `mergeMap` of its calls under the cap. */
export function scheduleWaves(batch: ScheduledBatch): [BatchStartEvent, Observable<DispatchEvent>] {
  const { config } = batch;
  const { mode } = batch.dispatch;
  const cap = batch.cap;
  const plan = planWaves(batch);
  batch.plan = plan;
  let explanation: CallExplanation[] | undefined;
  const start: BatchStartEvent = {
    type: 'batch-start',
    mode,
    maxConcurrency: cap,
    callCount: batch.calls.length,
    plan,
    get explanation() {
      explanation ??= explainPlan(batch.prepared.nodes(), plan);
      return explanation;
    },
  };
  const waits = batch.instrument === undefined ? undefined : batch.waveWaits(mode === 'sequential');
  const call = (index: number, place: CallPlace): Observable<DispatchEvent> =>
    unnested(
      runCall(
        batch,
        batch.prepared.call(index),
        waits === undefined ? place : { ...place, waitedFor: waits[index]! },
      ),
    );
  // A wave's events: `wave-start`, its calls' (one, or a `mergeMap` under the cap), then `wave-end`
  // unless the batch failed meanwhile (one Observable, not a concat: sequential is a wave a call).
  const wave = (calls: Wave['calls'], position: number): Observable<DispatchEvent> =>
    new Observable<DispatchEvent>((subscriber) => {
      if (batch.failure !== undefined) return subscriber.complete();
      const place: CallPlace = {
        wave: position,
        readyAt: config.scheduler.now(),
        waitedFor: [],
        submitter: batch.submitter,
      };
      subscriber.next({ type: 'wave-start', wave: position, calls });
      if (subscriber.closed) return;
      const body =
        calls.length === 1
          ? call(calls[0]!, place)
          : from(calls).pipe(mergeMap((index) => call(index, place), cap));
      // Tied to the wave before it is subscribed: an unsubscribe in a synchronous stage stops it.
      const events = new Subscriber<DispatchEvent>({
        next: (event) => subscriber.next(event),
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          if (batch.failure === undefined) subscriber.next({ type: 'wave-end', wave: position });
          subscriber.complete();
        },
      });
      subscriber.add(events);
      body.subscribe(events);
    });
  return [
    start,
    from(plan.waves).pipe(concatMap((w, position) => unnested(wave(w.calls, position)))),
  ];
}

/** Plans the waves (one call each when sequential or under 2 calls): `invalid_plan` if wrong. */
function planWaves(batch: ScheduledBatch): Plan {
  const { prepared, cap } = batch;
  const { planner } = batch.config;
  const count = batch.calls.length;
  if (batch.dispatch.mode === 'sequential' || count < 2) {
    const waves = Array.from({ length: count }, (_, index) => ({ calls: [index], open: false }));
    return { planner: 'sequential', waves };
  }
  let plan: Plan;
  let violations: string[];
  try {
    const nodes = prepared.nodes();
    plan = planner.plan(nodes, { maxConcurrency: cap });
    violations = verifyPlan(nodes, plan, { ordered: planner.keepsOrder === true });
  } catch (error) {
    throw new DispatchError({
      code: 'invalid_plan',
      message: `Planner \`${planner.name}\` failed: ${errorMessage(error)}`,
      cause: error,
    });
  }
  if (violations.length > 0) {
    throw new DispatchError({
      code: 'invalid_plan',
      message: `Planner \`${planner.name}\` returned a plan that breaks the rules: ${violations.join('; ')}`,
      violations,
    });
  }
  return plan;
}

/** The ready queue: each call starts once its dependencies have ended and a slot is free. */
export function scheduleReadyCalls(
  batch: ScheduledBatch,
  source: Observable<ToolCall> | undefined,
): [BatchStartEvent, Observable<DispatchEvent>] {
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
  if (source === undefined) {
    const rules = dependencies(batch.prepared.nodes());
    batch.rules = rules;
    calls = from(
      batch.calls.map(
        (_, index) => new ReadyCall(batch, index, rules[index]!, batch.startedAt, batch.submitter),
      ),
    );
  } else {
    batch.rules = [];
    const arrivals = new StreamArrivals({
      calls: batch.calls,
      repeats: batch.repeats,
      nodeOf: (index) => batch.prepared.node(index),
      sequential,
      rulesWanted: batch.gate !== undefined,
    });
    calls = source.pipe(
      map((call) => {
        const arrival = arrivals.arrive(call);
        if (arrival.rules !== undefined) batch.rules![arrival.index] = arrival.rules;
        // Each arriving call runs in the context it was emitted in (a turn's: `turn.run`'s).
        return new ReadyCall(
          batch,
          arrival.index,
          arrival.waits,
          batch.config.scheduler.now(),
          captureSubmitterContext(),
        );
      }),
      catchError((cause: unknown) => {
        const error =
          cause instanceof DispatchError && cause.code === 'source_failed'
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
  return [start, calls.pipe(scheduleEager<DispatchEvent>({ maxConcurrency: batch.cap, priority }))];
}

/** A call for the ready queue (a class: its `run` is not made per call). */
class ReadyCall implements EagerCall<DispatchEvent> {
  readonly estimateMs: number | undefined;

  constructor(
    readonly batch: ScheduledBatch,
    readonly index: number,
    readonly dependencies: readonly number[],
    readonly arrivedAt: number,
    readonly submitter: SubmitterContext,
  ) {
    this.estimateMs = batch.prepared.node(index).estimateMs;
  }

  run(waitedFor: readonly number[]): Observable<DispatchEvent> {
    const { batch, index, arrivedAt, submitter } = this;
    return runCall(batch, batch.prepared.call(index), {
      wave: undefined,
      readyAt: arrivedAt,
      arrivedAt,
      waitedFor,
      submitter,
    });
  }
}

/** How many subscriptions through {@link unnested} may nest in one synchronous stack. */
const MAX_NESTED = 32;
let nested = 0;

// `source`, subscribed at once, or after a microtask when MAX_NESTED such subscriptions are
// already nested in the stack (long runs of synchronous calls would overflow it).
function unnested<T>(source: Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    if (nested < MAX_NESTED) {
      nested += 1;
      try {
        return source.subscribe(subscriber);
      } finally {
        nested -= 1;
      }
    }
    let teardown: TeardownLogic;
    queueMicrotask(() => {
      if (!subscriber.closed) teardown = source.subscribe(subscriber);
    });
    return () => {
      if (teardown !== undefined && typeof teardown !== 'function') teardown.unsubscribe();
    };
  });
}
