import type { ToolCall } from '@toolwaves/core';

/** What kind of soft error an attempt ended with (README: Errors, what each kind means). */
export type SoftErrorKind =
  | 'unknown_tool'
  | 'invalid_input'
  | 'blocked'
  | 'hook_failed'
  | 'tool_error'
  | 'tool_reported'
  | 'timeout'
  | 'coordination_failed'
  | 'lease_lost'
  | 'outcome_unknown'
  | 'skipped';

/** One attempt that ended with a soft error: what a `Reflector` gets to look at. */
export interface SoftFailure {
  readonly kind: SoftErrorKind;
  /** The result content this attempt produced (the message the model would see). */
  readonly message: string;
  /** The call as the model asked for it. */
  readonly call: ToolCall;
  /** Position of the call in the batch. */
  readonly index: number;
  /** The tool this attempt asked for (a correction may have changed it). */
  readonly toolName: string;
  /** The input this attempt used (a correction may have changed it). */
  readonly input: unknown;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /** What the tool threw, for `tool_error` and `hook_failed`. */
  readonly error?: unknown;
}
