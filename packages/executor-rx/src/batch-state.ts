import type { BatchEndInfo, BatchInstrument, ToolCall, ToolResult } from '@toolwaves/core';
import { conflicts, dependencies } from '@toolwaves/planner';
import { CallsInFlight } from './calls-in-flight.js';
import { DispatchError } from './dispatch-error.js';
import { FailureGate, type FailurePolicy } from './failure-policy.js';
import { PreparedCalls, type ToolExecute } from './prepared-call.js';
import type { DispatcherConfig } from './resolve-dispatcher-options.js';

/** Options of {@link BatchState}. */
export interface BatchStateOptions {
  readonly config: DispatcherConfig;
  readonly calls: readonly ToolCall[];
  /** Whether waves and calls emit their events (not when nobody can see them: `dispatch`). */
  readonly progressEvents: boolean;
  /**
   * The run's subscriber. Once it is closed (unsubscribed from, maybe from inside a synchronous
   * hook), no stage of any call goes on, even before the run's teardown exists to say so.
   */
  readonly observer?: { readonly closed: boolean } | undefined;
  /** The batch as the dispatcher's instrumentation sees it (none without instrumentation). */
  readonly instrument?: BatchInstrument | undefined;
  /** The implementation given with call `index`, if any (turns). */
  readonly executeOf?: ((index: number) => ToolExecute | undefined) | undefined;
  /** The calls arrive one by one (a stream): their dependencies are recorded as they arrive. */
  readonly streamed?: boolean | undefined;
  /** The batch's failure policy; default the dispatcher's. */
  readonly onFailure?: FailurePolicy | undefined;
  /**
   * The batch runs in planned waves: a call's dependencies for the failure policy are then all
   * the earlier calls it conflicts with that its plan runs before it (a plan need not keep
   * rule 5, so the eager answers, which lean on it, do not apply).
   */
  readonly planned?: boolean | undefined;
}

/**
 * The state of one dispatch, shared by whatever schedules its calls (waves, eager, streams):
 * the prepared calls, the result slots, the calls in flight, and the hard error once there is
 * one. A hard error stops every call in flight at once (each gets its `call-end` and its own
 * signal aborts), and no call starts after it. Calls do not listen on any batch-wide signal:
 * the batch reaches each running call through `inFlight`, and a call that has ended is out of
 * reach.
 */
export class BatchState {
  readonly config: DispatcherConfig;
  readonly calls: readonly ToolCall[];
  readonly progressEvents: boolean;
  /** The calls, each resolved once (validated input, plan node); `prepared.call(i)` to run one. */
  readonly prepared: PreparedCalls;
  /** Slot i answers call i. */
  readonly results: (ToolResult | undefined)[];
  readonly inFlight = new CallsInFlight();
  readonly startedAt: number;
  failure: DispatchError | undefined;
  finished = false;
  /** Call starts nested in one synchronous stack (see `startNested`). */
  syncDepth = 0;
  /** When the current wave began: a first attempt's `waitMs` counts from here. */
  waveStartedAt: number;
  /** The batch as the instrumentation sees it, until it has ended. */
  instrument: BatchInstrument | undefined;
  /** The failure policy, unless it is `'continue'` (nothing to do). */
  readonly gate: FailureGate | undefined;
  /** A stream's calls' dependencies by the rules, recorded as they arrive. */
  readonly #arrivedDependencies: (readonly number[])[] | undefined;
  readonly #planned: boolean;
  readonly #observer: { readonly closed: boolean } | undefined;
  #dependencies: readonly (readonly number[])[] | undefined;

  constructor(options: BatchStateOptions) {
    const { config, calls } = options;
    this.config = config;
    this.calls = calls;
    this.progressEvents = options.progressEvents;
    this.#observer = options.observer;
    const { registry, health } = config;
    this.prepared = new PreparedCalls({ registry, calls, health, executeOf: options.executeOf });
    this.instrument = options.instrument;
    this.#arrivedDependencies = options.streamed === true ? [] : undefined;
    this.#planned = options.planned === true;
    const policy = config.onFailure;
    this.gate =
      (options.onFailure ?? policy) === 'continue'
        ? undefined
        : new FailureGate({
            policy: options.onFailure ?? policy,
            calls,
            dependenciesOf: (index) => this.#dependenciesOf(index),
          });
    this.results = new Array<ToolResult | undefined>(calls.length);
    this.startedAt = config.scheduler.now();
    this.waveStartedAt = this.startedAt;
  }

  /**
   * Per call, the earlier calls it waits for (once): by the rules (the planner's
   * `dependencies`), or, `sequential`, the call before it.
   */
  dependencies(sequential: boolean): readonly (readonly number[])[] {
    if (sequential) return this.calls.map((_, index) => (index === 0 ? [] : [index - 1]));
    this.#dependencies ??= dependencies(this.prepared.nodes());
    return this.#dependencies;
  }

  /** Call `index`'s final answer goes to its slot (and to the failure policy). */
  answered(index: number, result: ToolResult): void {
    this.results[index] = result;
    this.gate?.answered(index, result);
  }

  /** A stream's call `index` arrived with these dependencies (by the rules). */
  recordDependencies(index: number, dependencies: readonly number[]): void {
    if (this.#arrivedDependencies !== undefined) this.#arrivedDependencies[index] = dependencies;
  }

  #dependenciesOf(index: number): readonly number[] {
    const arrived = this.#arrivedDependencies;
    if (arrived !== undefined) return arrived[index]!;
    if (!this.#planned) return this.dependencies(false)[index]!;
    // Calls not answered yet (a later wave) are not waited for: the failure policy skips them.
    const node = this.prepared.node(index);
    const earlier: number[] = [];
    for (let i = 0; i < index; i++) {
      if (this.results[i] !== undefined && conflicts(this.prepared.node(i), node)) earlier.push(i);
    }
    return earlier;
  }

  /** Nobody listens to the run any more (it was unsubscribed from, or it ended). */
  get unobserved(): boolean {
    return this.#observer?.closed === true;
  }

  now(): number {
    return this.config.scheduler.now();
  }

  /**
   * A call of a stream arrives: it takes the next slot (returned) and is prepared like the
   * others. Only for a batch made with a `calls` array of its own, which grows with the stream.
   */
  arrive(call: ToolCall): number {
    const index = this.calls.length;
    // `prepared` reads this same array: the call is prepared like the others.
    (this.calls as ToolCall[]).push(call);
    return index;
  }

  /** Fails the batch with a hard error (the first one wins) and stops the calls in flight. */
  fail(error: DispatchError): void {
    if (this.failure !== undefined || this.finished) return;
    this.failure = error;
    const outcome = error.code === 'cancelled' ? 'cancelled' : 'aborted';
    for (const call of this.inFlight.running()) {
      if (!call.ended) call.stop(outcome);
    }
  }

  /**
   * Tells the instrumentation how the batch ended (once; after every attempt has ended).
   * `waves`: how many the batch ran in, when it ran in waves.
   */
  endInstrument(outcome: BatchEndInfo['outcome'], error?: unknown, waves?: number): void {
    const instrument = this.instrument;
    if (instrument === undefined) return;
    this.instrument = undefined;
    const callCount = this.calls.length;
    instrument.end({
      outcome,
      callCount,
      ...(waves === undefined ? {} : { waves }),
      ...(error === undefined ? {} : { error }),
    });
  }

  /**
   * The run was torn down: when it had not ended, the calls in flight are abandoned (their
   * timers cleared) and their tools are told to stop through their signals.
   */
  dispose(): void {
    if (this.failure !== undefined || this.finished) return;
    this.failure = new DispatchError({
      code: 'cancelled',
      message: 'The dispatch was unsubscribed from before it ended',
    });
    for (const call of this.inFlight.running()) {
      if (!call.ended) call.abandon();
    }
  }
}
