import {
  type CallExplanation,
  type ExplainPlanOptions,
  explainPlan,
  type Plan,
  verifyPlan,
  type Wave,
} from '@toolwaves/planner';
import { Observable } from 'rxjs';
import { errorMessage } from './attempt-answer.js';
import type { BatchSchedule, CallPlace, CallSubscriber, ScheduledBatch } from './call-batch.js';
import { cappedWave } from './capped-wave.js';
import { DispatchError } from './dispatch-error.js';
import type { BatchStartEvent, DispatchEvent } from './dispatch-event.js';
import { earlierWaveConflicts } from './earlier-wave-conflicts.js';
import { limitedWave } from './limited-wave.js';
import { oneAfterAnother } from './one-after-another.js';
import { operate } from './operate.js';
import { runCall, startCall } from './run-call.js';

// A batch in waves (parallel mode, or one call per wave: sequential), one schedule of the batch
// shell (`runBatch`); the other is the ready queue (`scheduleReadyCalls`).

/** The plan's waves one after another, each its calls under the cap (`mergeMap`'s schedule). */
export function scheduleWaves(batch: ScheduledBatch): BatchSchedule {
  const { config } = batch;
  const { mode } = batch.dispatch;
  const cap = batch.cap;
  const plan = planWaves(batch);
  // Every call's named limits, read now: a wrong declaration refuses the batch before it starts.
  const pool = config.limits?.local;
  if (config.limits !== undefined)
    for (let i = 0; i < batch.calls.length; i++) batch.prepared.limits(i);
  // Per call, the calls it conflicts with that its plan ran in an earlier wave (what it depends on,
  // for the failure policy; made on first need: a sequential batch never reads declarations else).
  let conflicting: (readonly number[])[] | undefined;
  const conflictsOf = (): (readonly number[])[] => {
    conflicting ??= earlierWaveConflicts(batch.prepared.nodes(), plan);
    return conflicting;
  };
  // What each call waited for, for the instrumentation: the call before it, or those.
  const waitsOf = (): (readonly number[])[] =>
    mode === 'sequential'
      ? batch.calls.map((_, index) => (index === 0 ? [] : [index - 1]))
      : conflictsOf();
  let explanation: CallExplanation[] | undefined;
  const start: BatchStartEvent = {
    type: 'batch-start',
    mode,
    maxConcurrency: cap,
    callCount: batch.calls.length,
    plan,
    get explanation() {
      explanation ??= explainPlan(batch.prepared.nodes(), plan, explainOptions(batch));
      return explanation;
    },
  };
  const waited = batch.instrument === undefined ? undefined : waitsOf();
  // Where a call runs: its wave's place, with what it waited for (for the instrumentation).
  const placed = (index: number, place: CallPlace): CallPlace =>
    waited === undefined ? place : { ...place, waitedFor: waited[index]! };
  // A call's events. The waves run one after another, and a wave starts the calls that end at
  // once, in loops, not a deeper stack (`oneAfterAnother`, `cappedWave`, `limitedWave`).
  const startIn = (index: number, place: CallPlace, subscriber: CallSubscriber): void =>
    startCall(batch, batch.prepared.call(index), placed(index, place), subscriber);
  // A wave's events: `wave-start`, its calls' (one, or under the cap), then `wave-end` unless the
  // batch failed meanwhile (one Observable, not a concat: sequential is a wave a call).
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
      // Tied to the wave before it is subscribed: an unsubscribe in a synchronous stage stops it.
      const events = operate<DispatchEvent>({
        destination: subscriber,
        next: (event) => subscriber.next(event),
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          if (batch.failure === undefined) subscriber.next({ type: 'wave-end', wave: position });
          subscriber.complete();
        },
      });
      // Its first call begins when the wave did (`BatchClock`).
      batch.clock.hand(place.readyAt);
      try {
        startCalls(calls, place, events);
      } finally {
        batch.clock.drop();
      }
    });
  // A wave's calls: one, or under the cap (and the named limits, when the Dispatcher has them).
  const startCalls = (calls: Wave['calls'], place: CallPlace, events: CallSubscriber): void => {
    if (pool !== undefined) {
      limitedWave({
        calls,
        cap,
        limits: pool,
        weightsOf: (index) => batch.prepared.limits(index).local,
        run: (index, limitWaits) =>
          runCall(batch, batch.prepared.call(index), placed(index, { ...place, limitWaits })),
      }).subscribe(events);
    } else if (calls.length === 1) {
      startIn(calls[0]!, place, events);
    } else {
      cappedWave({
        calls,
        cap,
        start: (index, observer) => startIn(index, place, observer),
      }).subscribe(events);
    }
  };
  return {
    start,
    events: oneAfterAnother(plan.waves.length, (position) =>
      wave(plan.waves[position]!.calls, position),
    ),
    dependenciesOf: (index) => conflictsOf()[index]!.filter((i) => i < index),
    waveCount: plan.waves.length,
  };
}

/** With the Dispatcher's limits, the explanation also names them and the waits a wave may cause. */
function explainOptions(batch: ScheduledBatch): ExplainPlanOptions {
  const pool = batch.config.limits?.local;
  if (pool === undefined) return {};
  const capacities = Object.fromEntries(pool.names().map((name) => [name, pool.capacity(name)!]));
  const weights = batch.calls.map((_, index) => batch.prepared.limits(index).local);
  return { limits: { capacities, weights } };
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
