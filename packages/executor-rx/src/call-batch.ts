import type { BatchInstrument, ToolCall } from '@toolwaves/core';
import type { Observable, Observer, Subscription } from 'rxjs';
import type { BatchClock } from './batch-clock.js';
import type { DispatchError } from './dispatch-error.js';
import type { BatchStartEvent, DispatchEvent } from './dispatch-event.js';
import type { FailureGate } from './failure-policy.js';
import type { PreparedCall, PreparedCalls } from './prepared-call.js';
import type { DispatcherConfig, ResolvedDispatchOptions } from './resolve-dispatcher-options.js';
import type { SubmitterContext } from './submitter-context.js';

/** The batch's stop, as its calls in flight hear it: a cancel, or a hard error elsewhere. */
export interface BatchStop {
  readonly outcome: 'cancelled' | 'aborted';
  readonly error: DispatchError;
}

/**
 * What a call's events go to: an observer that is its own Subscription (a `Subscriber`, or what
 * `operate` and `detached` make); unsubscribing it stops the call.
 */
export type CallSubscriber = Observer<DispatchEvent> & Subscription;

/** What a call needs of its batch (the batch shell gives it; see `runBatch`). */
export interface CallBatch {
  readonly config: DispatcherConfig;
  /** The dispatcher's clock as the batch reads it (an attempt's beginning: `began`). */
  readonly clock: BatchClock;
  /** The batch's calls (a stream's grow as they arrive), to name the calls waited for. */
  readonly calls: readonly ToolCall[];
  readonly startedAt: number;
  /** The batch as the instrumentation sees it, if there is one. */
  readonly instrument: BatchInstrument | undefined;
  /** The failure policy, unless it is `'continue'`. */
  readonly gate: FailureGate | undefined;
  /** Someone sees the calls' `call-start` events (else they are not made: only the results, on
   * the `call-end` events, are read). */
  readonly startsSeen: boolean;
  /** Emits once when the batch stops: every call in flight ends with that outcome. */
  readonly stops: Observable<BatchStop>;
  /** Whether `stops` may ever emit: only the caller's signal, a stream's (or turn's) source, a
   * pre hook's abort and recovery giving up stop a batch (`fail`, `stop`); without any of them
   * it never stops, and its calls need not listen. */
  readonly mayStop: boolean;
  /** The batch's hard error, once there is one: no call starts after it. */
  readonly failure: DispatchError | undefined;
  /** This call raises the batch's hard error (the others are stopped before it propagates). */
  fail(error: DispatchError): void;
  /** `whileStreaming: 'read-only'` on a stream or turn: what it says of a call's retries. */
  readonly hold?: RetryHold | undefined;
}

/** What a retry asks of the hold of calls while the model writes (`hold-side-effects.ts`). */
export interface RetryHold {
  /** The soft error of a retry, corrected into a call that is not a read, while the message is
   * not complete yet; `undefined` when it may start. */
  refusedRetry(prepared: PreparedCall): string | undefined;
}

/** Where a call runs in its batch. */
export interface CallPlace {
  /** Position of the call's wave, on its events; `undefined` without waves (eager, streams). */
  readonly wave: number | undefined;
  /** When the call became ready: its first `call-end`'s `waitMs` counts from here. */
  readonly readyAt: number;
  /** Eager mode and streams: when the call arrived (its `call-start`s tell the wait). */
  readonly arrivedAt?: number | undefined;
  /** Calls it waited for, ascending (eager: dependencies open on arrival; waves: its plan's). */
  readonly waitedFor: readonly number[];
  /** The named limits it waited for while a slot was free (only with the Dispatcher's `limits`). */
  readonly limitWaits?: readonly string[] | undefined;
  /** The async context of the code that submitted the call, entered around its own code. */
  readonly submitter: SubmitterContext;
}

/** What a schedule (`scheduleWaves`, `scheduleReadyCalls`) makes of its batch. */
export interface BatchSchedule {
  readonly start: BatchStartEvent;
  /** The calls' events, subscribed once by the batch's shell, after `start`. */
  readonly events: Observable<DispatchEvent>;
  /** The earlier calls call `index` depends on, for the failure policy (a stream's calls' as they
   * arrive: asked only of a call that has arrived). */
  readonly dependenciesOf: (index: number) => readonly number[];
  /** How many waves it planned; `undefined` without waves. */
  readonly waveCount: number | undefined;
  /** The hold of calls while the model writes, when there is one. */
  readonly hold?: RetryHold | undefined;
}

/** What a batch's schedule (`scheduleWaves`, `scheduleReadyCalls`) needs of its batch. */
export interface ScheduledBatch extends CallBatch {
  /** The batch's calls: a stream's arrivals are appended. */
  readonly calls: ToolCall[];
  readonly prepared: PreparedCalls;
  /** A stream's calls: per call, the earlier call with the same id (set as they arrive). */
  readonly repeats: (number | undefined)[];
  readonly dispatch: ResolvedDispatchOptions;
  /** The async context `dispatch` or `run` was called in (a whole batch's calls run in it). */
  readonly submitter: SubmitterContext;
  /** The cap in force: clamped to a whole batch's size; a sequential stream's is 1. */
  readonly cap: number;
  /** The caller's signal, or a failing source: the calls in flight are stopped, then the error. */
  stop(error: DispatchError): void;
}
