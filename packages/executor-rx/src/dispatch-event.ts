import type { ToolResult } from '@toolwaves/core';
import type { CallEdge, CallExplanation, Plan } from '@toolwaves/planner';

/** How a batch runs: `sequential` (default), `parallel` (planned waves) or `eager` (README). */
export type DispatchMode = 'sequential' | 'parallel' | 'eager';

/** How an attempt ended, on its `call-end` event (README: Events). */
export type CallOutcome = 'ok' | 'error' | 'retry' | 'hard-error' | 'cancelled' | 'aborted';

/** First event of a run: the plan the batch will follow (none in eager mode and for streams). */
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
  /** Why each call sits in its wave (the planner's `explainPlan`), computed on first read. */
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
  /** Time waited for the fleet `coordinator`'s grant, in ms (part of `durationMs`). */
  readonly fleetWaitMs: number;
  /** Eager mode and streams: its dependencies not ended when it arrived, ascending. */
  readonly waitedFor?: readonly number[];
  /** Eager mode and streams only: time from the call's arrival to this attempt's start, in ms. */
  readonly waitedMs?: number;
  /**
   * The named limits (the Dispatcher's `limits`) the call waited for: a slot was free, but one
   * of these had no room for its weight. First attempt only; absent when it waited for none.
   */
  readonly waitedForLimits?: readonly string[];
  /**
   * The call's ordering edges, when it has any: each earlier call it follows and why
   * (`'after'`, `'after-previous'`, `'wait_for_previous'`; README: Ordering edges).
   */
  readonly edges?: readonly CallEdge[];
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
  /** The answer or soft error; a hard error's message; `undefined` when stopped. */
  readonly content: string | undefined;
  /** Time from this attempt's start to its end, in ms. */
  readonly durationMs: number;
  /** The call's result, on its final `call-end` (`ok` or `error`): what its slot holds. */
  readonly result?: ToolResult;
  /** Time waited before this attempt started, in ms: for a slot, a back-off or keys (README). */
  readonly waitMs: number;
  /**
   * The fleet grant was lost while the tool ran: the answer is the tool's own when it had marked
   * its effect committed (`ToolContext.markCommitted`) and then answered, else `outcome_unknown`.
   */
  readonly leaseLost?: true;
}

/** The keys of a tool that outlived its answer were given back after `settleTimeoutMs` (README). */
export interface SettleTimeoutEvent {
  readonly type: 'settle-timeout';
  /** The call that never settled. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** How long its keys were held after its slot was answered, in ms. */
  readonly heldMs: number;
}

/**
 * A call that never ran: because of the failure policy, `onFailure` (README: Failure policy), or
 * because it was held back until the model's message was complete and the message failed or was
 * cancelled (`whileStreaming: 'read-only'`; README: Side effects held back while the model writes).
 */
export type CallSkippedEvent = CallSkippedFields &
  (
    | {
        readonly reason: 'dependency-failed' | 'stopped';
        /** The call whose soft error caused the skip (for a transitive dependency, the first one). */
        readonly failedCallId: string;
      }
    | {
        /** Held back while the model wrote, and the message never completed: nothing ran. */
        readonly reason: 'message-incomplete';
        readonly failedCallId?: undefined;
      }
  );

/** What every {@link CallSkippedEvent} holds. */
export interface CallSkippedFields {
  readonly type: 'call-skipped';
  /** The call's wave; `undefined` in eager mode and for streams (no waves). */
  readonly wave: number | undefined;
  readonly index: number;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The soft error in the call's slot. */
  readonly content: string;
  /** The call's result: the soft error, as its slot holds it. */
  readonly result: ToolResult;
  /** The call's ordering edges, when it has any (as on {@link CallStartEvent}). */
  readonly edges?: readonly CallEdge[];
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
 * What `Dispatcher.run` and `runStream` emit, the same stream in every mode; narrow by `type`
 * (README: Events, for their order and fields).
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
