import type { Coordinator, Instrumentation, ToolRegistry, WhileStreaming } from '@toolwaves/core';
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
  /** Eager mode and streams: which ready call starts first. Default `'model-order'`. */
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
  /** Clock and timers (timeouts, back-off, durations). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike | undefined;
  /** Fleet-wide grants of each attempt's declared accesses (README). Default `noCoordination`. */
  readonly coordinator?: Coordinator | undefined;
  /**
   * With a `coordinator`: a call that is not concurrency-safe holds the whole namespace
   * fleet-wide (default `true`: it runs alone here, so it runs alone in the fleet). `false` gives
   * that up: such a call holds only the accesses it declares (as writes), and nothing when it
   * declares none, so it may run beside other processes' calls (README: Fleet-wide coordination).
   */
  readonly fleetExclusiveForUnsafe?: boolean | undefined;
  /** How long (ms, or `Infinity`) a tool outliving its answer holds its keys. Default 30 000. */
  readonly settleTimeoutMs?: number | undefined;
  /** Where dispatches and attempts are reported (README). Default `noInstrumentation`. */
  readonly instrumentation?: Instrumentation | undefined;
  /** What a soft error does to the rest of the batch. Default `'continue'`. */
  readonly onFailure?: FailurePolicy | undefined;
  /**
   * Named limits with their capacities (`{ github: 4, 'mcp:web': 2 }`), shared by every batch of
   * this dispatcher: a call counts against those its tool declares (`Tool.limits`), with its
   * weight, besides `maxConcurrency` (README: Named limits). Default none.
   */
  readonly limits?: Readonly<Record<string, number>> | undefined;
  /**
   * The model was given the optional boolean `wait_for_previous` on every tool (`toolJsonSchema`
   * or a provider's tool list with `modelOrdering`; the framework adapters read this option):
   * it is taken out of each call's input before validation, and `true` makes the call start only
   * after every earlier call of its turn has ended (README: Ordering edges). Default `false`.
   */
  readonly modelOrdering?: boolean | undefined;
  /**
   * Streams and turns: which calls may start before the message is complete (the source ended
   * normally; a turn's `close()`). Default `'read-only'`: a call that is not a concurrency-safe
   * read waits for the end, and never starts from a message that fails or is cancelled
   * (README: Side effects held back while the model writes).
   */
  readonly whileStreaming?: WhileStreaming | undefined;
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
  /** This stream's or turn's `whileStreaming`; default the dispatcher's. */
  readonly whileStreaming?: WhileStreaming | undefined;
  /** Called with every event, in order, as it happens; one that throws fails the batch. */
  readonly onEvent?: ((event: DispatchEvent) => void) | undefined;
  /** This batch's calls may carry `wait_for_previous`; default the dispatcher's `modelOrdering`. */
  readonly modelOrdering?: boolean | undefined;
}

export type { DispatchMode };
