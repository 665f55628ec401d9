import type { ToolResult } from './tool-result.js';

/** What a {@link Instrumentation} is told when a dispatch (a batch, a stream or a turn) starts. */
export interface BatchStartInfo {
  /** The mode the batch runs in. */
  readonly mode: 'sequential' | 'parallel' | 'eager';
  /** How the calls reach the Dispatcher: a whole batch, a stream, or a turn fed call by call. */
  readonly source: 'batch' | 'stream' | 'turn';
  /** The planner's name when the batch runs in waves. */
  readonly planner?: string;
  /** The number of calls, when known up front (whole batches). */
  readonly callCount?: number;
  /** The batch's cap. */
  readonly maxConcurrency: number;
}

/** How a dispatch ended. */
export interface BatchEndInfo {
  /** `ok`: every call answered; `cancelled`: the caller's signal; `failed`: a hard error. */
  readonly outcome: 'ok' | 'cancelled' | 'failed';
  /** The number of calls the batch held when it ended. */
  readonly callCount: number;
  /** The number of waves, when the batch ran in waves. */
  readonly waves?: number;
  /** The hard error, for `cancelled` and `failed`. */
  readonly error?: unknown;
}

/** What is known when one attempt of one call begins (before it waits for anything). */
export interface AttemptStartInfo {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The tool's description, when the registry knows the tool. */
  readonly toolDescription?: string;
  /** The call's position in the batch (model order). */
  readonly index: number;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /** The input this attempt runs with (record it only when asked to). */
  readonly input: unknown;
  /** The ids of the earlier calls this call waited for (its dependencies), in model order. */
  readonly waitedFor: readonly string[];
}

/** What is known once an attempt may run its tool: how long it waited, and for what. */
export interface AttemptGrantInfo {
  /** Time spent waiting for earlier calls in this process (dependencies and lingering keys), ms. */
  readonly keyWaitMs: number;
  /** Time spent waiting for the fleet coordinator's grant, ms. */
  readonly fleetWaitMs: number;
  /** The fleet grant's fencing token, when a coordinator gave one. */
  readonly fencingToken?: number;
}

/** How one attempt ended. */
export interface AttemptEndInfo {
  /** `ok`, a soft `error`, or `cancelled` (the batch was cancelled or failed while it ran). */
  readonly outcome: 'ok' | 'error' | 'cancelled';
  /** The attempt's answer (for `ok` and `error`). */
  readonly result?: ToolResult;
  /** The soft error's kind (`tool_error`, `timeout`, `invalid_input`, ...), for `error`. */
  readonly errorKind?: string;
  /** Whether recovery will try the call again after this attempt. */
  readonly retried: boolean;
}

/** One attempt as the instrumentation sees it. */
export interface AttemptInstrument {
  /** Called once, when the attempt may run its tool (after key and fleet waits). */
  granted(info: AttemptGrantInfo): void;
  /** Runs `fn` (the tool's `execute`) inside the attempt's context, e.g. its span. */
  run<T>(fn: () => T): T;
  /** Called exactly once, when the attempt has ended. */
  end(info: AttemptEndInfo): void;
}

/** One dispatch as the instrumentation sees it. */
export interface BatchInstrument {
  /** Called when an attempt begins; every attempt started is ended. */
  startAttempt(info: AttemptStartInfo): AttemptInstrument;
  /** Called exactly once, when the dispatch has ended, after every attempt has ended. */
  end(info: BatchEndInfo): void;
}

/**
 * The Dispatcher's one instrumentation point (option `instrumentation`): a dispatch and each
 * attempt of each call are wrapped, and the tool's `execute` runs inside the attempt's
 * `run`, so that tracing context reaches the tool (a span the tool starts itself is a child of
 * its attempt's span). `startBatch` is called synchronously inside `dispatch` / `run` /
 * `dispatchStream` / `openTurn`, so it sees the caller's active context. Default:
 * {@link noInstrumentation}. An instrumentation must not throw.
 *
 * @example
 * ```ts
 * import { openTelemetry } from '@toolwaves/otel';
 * new Dispatcher({ registry, instrumentation: openTelemetry() });
 * ```
 * @see noInstrumentation
 */
export interface Instrumentation {
  startBatch(info: BatchStartInfo): BatchInstrument;
}

const NO_ATTEMPT: AttemptInstrument = {
  granted: () => undefined,
  run: (fn) => fn(),
  end: () => undefined,
};
const NO_BATCH: BatchInstrument = { startAttempt: () => NO_ATTEMPT, end: () => undefined };

/**
 * The instrumentation used when none is configured: records nothing, runs tools as they are.
 *
 * @example
 * ```ts
 * new Dispatcher({ registry, instrumentation: noInstrumentation });
 * ```
 */
export const noInstrumentation: Instrumentation = { startBatch: () => NO_BATCH };
