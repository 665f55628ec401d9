import type { ToolResult } from '@toolwaves/core';
import type { CallExplanation, Plan } from '@toolwaves/planner';

/**
 * How a batch runs: `sequential` (the default) runs one call after another in model order;
 * `parallel` plans waves and runs each wave's calls concurrently under `maxConcurrency`;
 * `eager` starts each call as soon as the earlier calls it depends on (rules 4 and 5, from the
 * planner's `dependencies`) have ended and a slot is free, with no waves. Streams of calls run
 * eagerly in `parallel` and `eager` mode, one by one as they arrive in `sequential` mode.
 */
export type DispatchMode = 'sequential' | 'parallel' | 'eager';

/**
 * How an attempt ended, on its `call-end` event:
 * - `ok`: the call's answer (final);
 * - `error`: a soft error that keeps the call's slot (final);
 * - `retry`: a soft error; recovery tries again (another `call-start` follows);
 * - `hard-error`: this call raised the batch's hard error (hook abort, loop detected, recovery
 *   exhausted);
 * - `cancelled`: the caller's signal aborted while the attempt ran;
 * - `aborted`: another call's hard error stopped this attempt.
 */
export type CallOutcome = 'ok' | 'error' | 'retry' | 'hard-error' | 'cancelled' | 'aborted';

/**
 * First event of a run: the plan the batch will follow. In eager mode and for streams there is
 * no plan (calls start one by one as their dependencies end: see `waitedFor` on
 * {@link CallStartEvent}).
 */
export interface BatchStartEvent {
  readonly type: 'batch-start';
  /** The mode the batch runs in: a stream in `parallel` mode runs `eager`. */
  readonly mode: DispatchMode;
  /** The cap in force, clamped to the batch size (not clamped for a stream). */
  readonly maxConcurrency: number;
  /** The number of calls; `undefined` for a stream (not known yet). */
  readonly callCount: number | undefined;
  /** The waves; `undefined` in eager mode and for streams. */
  readonly plan: Plan | undefined;
  /**
   * Why each call sits in its wave (the planner's `explainPlan`), one entry per call. Computed
   * on first read, so a run nobody inspects does not pay for it. Empty without a plan.
   */
  readonly explanation: readonly CallExplanation[];
}

/** A wave begins: its calls are about to start (up to the cap). Not in eager mode nor for streams. */
export interface WaveStartEvent {
  readonly type: 'wave-start';
  /** Position of the wave in the plan, from 0. */
  readonly wave: number;
  /** Indices of its calls, ascending. */
  readonly calls: readonly number[];
}

/** An attempt of a call starts (it holds a slot). Paired with one {@link CallEndEvent}. */
export interface CallStartEvent {
  readonly type: 'call-start';
  /** The call's wave; `undefined` in eager mode and for streams (no waves). */
  readonly wave: number | undefined;
  /** Position of the call in the batch. */
  readonly index: number;
  readonly toolCallId: string;
  /** The tool this attempt asks for. */
  readonly toolName: string;
  readonly input: unknown;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /**
   * Time this attempt waited for the fleet `coordinator` to grant its accesses, in ms (0 without
   * one). It is part of the attempt's `durationMs` and counts in `timeoutMs`.
   */
  readonly fleetWaitMs: number;
  /**
   * Eager mode and streams only: the earlier calls this call waited for (its dependencies that
   * had not ended when it arrived), ascending.
   */
  readonly waitedFor?: readonly number[];
  /** Eager mode and streams only: time from the call's arrival to this attempt's start, in ms. */
  readonly waitedMs?: number;
}

/** An attempt of a call ended; same `toolCallId` and `attempt` as its {@link CallStartEvent}. */
export interface CallEndEvent {
  readonly type: 'call-end';
  /** The call's wave; `undefined` in eager mode and for streams (no waves). */
  readonly wave: number | undefined;
  readonly index: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly attempt: number;
  readonly outcome: CallOutcome;
  /** Whether the attempt ended without an answer (anything but `ok`). */
  readonly isError: boolean;
  /**
   * The content of the attempt's result or soft error; for `hard-error`, the error's message;
   * `undefined` when the attempt was stopped (`cancelled`, `aborted`).
   */
  readonly content: string | undefined;
  /** Time from this attempt's start to its end, in ms. */
  readonly durationMs: number;
  /** The call's result, on its final `call-end` (`ok` or `error`): what its slot holds. */
  readonly result?: ToolResult;
  /**
   * Time spent waiting before this attempt started, in ms: for the first attempt, the wait for
   * a slot since its wave began (eager mode and streams: since the call arrived); for a retry,
   * the back-off since the previous attempt ended; and the wait for keys still held by a
   * tool of this dispatcher that outlived its answer, if there was one.
   */
  readonly waitMs: number;
}

/**
 * A call whose slot was answered long ago (it timed out or was stopped) but whose tool ignored
 * its signal and never settled held its keys for the dispatcher's `settleTimeoutMs`; they are
 * given back now, while that tool may still be running. Emitted in the batch of the call that
 * was waiting for those keys (possibly a later batch of the same dispatcher), before that
 * call's `call-start`.
 */
export interface SettleTimeoutEvent {
  readonly type: 'settle-timeout';
  /** The call that never settled. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** How long its keys were held after its slot was answered, in ms. */
  readonly heldMs: number;
}

/**
 * A call that never ran because of the failure policy (`onFailure`): its turn to start came
 * after a call it depends on failed (`dependency-failed`, under `'skip-dependents'`), or after
 * the batch's first soft error (`stopped`, under `'stop'`). It has no `call-start`/`call-end`;
 * its slot holds a soft error with `content`.
 */
export interface CallSkippedEvent {
  readonly type: 'call-skipped';
  /** The call's wave; `undefined` in eager mode and for streams (no waves). */
  readonly wave: number | undefined;
  readonly index: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly reason: 'dependency-failed' | 'stopped';
  /** The call whose soft error caused the skip (for a transitive dependency, the first one). */
  readonly failedCallId: string;
  /** The soft error in the call's slot. */
  readonly content: string;
  /** The call's result: the soft error, as its slot holds it. */
  readonly result: ToolResult;
}

/** Every call of a wave has ended. */
export interface WaveEndEvent {
  readonly type: 'wave-end';
  readonly wave: number;
}

/** Last event of a successful run: one result per call, in call order. */
export interface BatchEndEvent {
  readonly type: 'batch-end';
  readonly results: readonly ToolResult[];
  /** Time from the batch's start to its end, in ms. */
  readonly durationMs: number;
}

/**
 * What `Dispatcher.run` emits, the same stream in every mode: `batch-start`, then per wave
 * `wave-start`, `call-start`/`call-end` pairs (starts as calls take slots, ends by
 * completion: pair them by `toolCallId` and `attempt`), `wave-end`; finally `batch-end`, or
 * an error with a `DispatchError` after the `call-end`s of the calls that were in flight.
 * Eager mode and streams (`runStream`) have no waves, so no `wave-start`/`wave-end`: their
 * `call-start` events say which calls each waited for (`waitedFor`, `waitedMs`).
 */
export type DispatchEvent =
  | BatchStartEvent
  | WaveStartEvent
  | CallStartEvent
  | CallEndEvent
  | CallSkippedEvent
  | WaveEndEvent
  | SettleTimeoutEvent
  | BatchEndEvent;
