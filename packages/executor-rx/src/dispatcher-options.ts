import type { Coordinator, Instrumentation, ToolRegistry } from '@toolwaves/core';
import type { EagerPriority, Planner } from '@toolwaves/planner';
import type { SchedulerLike } from 'rxjs';
import type { DispatchEvent, DispatchMode } from './dispatch-event.js';
import type { DispatchHooks } from './dispatch-hooks.js';
import type { FailurePolicy } from './failure-policy.js';
import type { RecoveryOptions } from './recovery-strategy.js';
import type { ToolHealth } from './tool-health.js';

/** Options of the {@link Dispatcher} constructor. */
export interface DispatcherOptions {
  /** The tools calls are resolved against. */
  readonly registry: ToolRegistry;
  /** Default `'sequential'`; parallel is opt-in, here or per dispatch. */
  readonly mode?: DispatchMode | undefined;
  /** Calls running at once inside a wave: an integer ≥ 1, default 8, clamped to the batch size. */
  readonly maxConcurrency?: number | undefined;
  /**
   * Eager mode and streams: which ready call takes a free slot first, `'model-order'` (the
   * default: the earliest) or `'longest-first'` (the largest estimate from the health record,
   * ties in model order).
   */
  readonly priority?: EagerPriority | undefined;
  /** How parallel batches are planned. Default `greedyPlanner()`. */
  readonly planner?: Planner | undefined;
  /** Pre hooks (allow / block / abort) and post hooks (observe). */
  readonly hooks?: DispatchHooks | undefined;
  /** What to do about soft errors. Default: nothing (a soft error is final). */
  readonly recovery?: RecoveryOptions | undefined;
  /** Per-attempt time limit in ms (a number above 0); past it the tool's signal aborts. Default none. */
  readonly timeoutMs?: number | undefined;
  /** Where attempts are recorded; pass one to share it between dispatchers. Default a new one. */
  readonly health?: ToolHealth | undefined;
  /**
   * Clock and timers (timeouts, back-off) and `now()` for durations. Default `asyncScheduler`
   * (which uses `setInterval` and `Date.now`, so fake timers drive it).
   */
  readonly scheduler?: SchedulerLike | undefined;
  /**
   * Fleet-wide coordination: every attempt, after its pre hooks and before its tool runs, holds
   * a grant for the call's declared accesses (`access` / `resourceKey`, empty when none). The
   * wait counts in `timeoutMs` and obeys cancellation; `call-start` reports it as
   * `fleetWaitMs`; the grant's `fencingToken` reaches the tool as `ToolContext.fencingToken`; a
   * grant that cannot be had is the soft error `coordination_failed` (one lost before the tool
   * started, `lease_lost`), and the tool never runs unlocked; one lost after the tool started is
   * `outcome_unknown`, never retried. The grant is released when the tool settles. A call whose
   * declarations cannot be read asks for `exclusive: true`. Default `noCoordination`.
   */
  readonly coordinator?: Coordinator | undefined;
  /**
   * How long, in ms (a number above 0, or `Infinity`), a call keeps its keys after its slot was
   * answered without its tool settling (it timed out, lost its lease, or its batch was cancelled
   * or failed, and the tool ignores its signal). Until the tool settles, or this long at most,
   * a conflicting call of this dispatcher — in the same batch or a later one — waits; then the
   * keys are given back anyway and the waiting call's batch gets a `settle-timeout` event.
   * Nothing else waits. A fleet grant is held longer: until the tool settles. Default 30 000.
   */
  readonly settleTimeoutMs?: number | undefined;
  /**
   * Where dispatches and attempts are reported (e.g. `openTelemetry()` of `@toolwaves/otel`):
   * `startBatch` when a dispatch, stream or turn starts (when its Observable is subscribed:
   * synchronously inside `dispatch`, `dispatchStream` and `openTurn`), `startAttempt` when an
   * attempt begins, `granted` just before its tool runs, the tool's `execute` inside
   * `run`, `end` once per attempt and once per batch. Default `noInstrumentation`.
   */
  readonly instrumentation?: Instrumentation | undefined;
  /**
   * What a soft error does to the rest of the batch: `'continue'` (the default: nothing),
   * `'skip-dependents'` (the calls that depend on it, directly or not, are answered with a soft
   * error naming it and never run) or `'stop'` (no call starts after it). Also per dispatch.
   */
  readonly onFailure?: FailurePolicy | undefined;
}

/** Options of one `dispatch` or `run`. */
export interface DispatchOptions {
  /** Cancels the batch: the hard error `cancelled`. */
  readonly signal?: AbortSignal | undefined;
  /** This batch's mode; default the dispatcher's. */
  readonly mode?: DispatchMode | undefined;
  /** This batch's cap; default the dispatcher's. */
  readonly maxConcurrency?: number | undefined;
  /** This batch's priority in eager mode and streams; default the dispatcher's. */
  readonly priority?: EagerPriority | undefined;
  /** This batch's failure policy; default the dispatcher's. */
  readonly onFailure?: FailurePolicy | undefined;
  /**
   * Called with every event of the batch, in order, as it happens (with `dispatch`, the
   * results and the events without writing any RxJS). An `onEvent` that throws fails the
   * batch with what it threw: the calls in flight are stopped as if unsubscribed from.
   */
  readonly onEvent?: ((event: DispatchEvent) => void) | undefined;
}

export type { DispatchMode };
