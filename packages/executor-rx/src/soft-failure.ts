import type { ToolCall } from '@toolwaves/core';

/**
 * What kind of soft error an attempt ended with:
 * - `unknown_tool`: no tool has the name (the message lists the registered names);
 * - `invalid_input`: the input fails the tool's schema (the message names the field);
 * - `blocked`: a pre hook blocked the call;
 * - `hook_failed`: a pre or post hook threw;
 * - `tool_error`: the tool threw, or returned something that is not a string or `{ content }`;
 * - `tool_reported`: the tool answered with `isError: true`;
 * - `timeout`: the attempt ran past `timeoutMs` (its signal was aborted);
 * - `coordination_failed`: the fleet `coordinator` could not grant the call's accesses (the tool
 *   never ran);
 * - `lease_lost`: the fleet coordinator's grant was lost before the call's tool started (the
 *   tool never ran);
 * - `outcome_unknown`: the grant was lost after the tool started (its signal was aborted): its
 *   effect is unknown, so recovery never retries it;
 * - `skipped`: the call never ran because of the failure policy (`onFailure`).
 */
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

/**
 * One attempt that ended with a soft error: what recovery gets to look at.
 *
 * @see Reflector
 */
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
