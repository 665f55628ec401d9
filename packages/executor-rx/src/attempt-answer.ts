import { outcomeUnknownText, type ToolOutput } from '@toolwaves/core';
import { describeValue } from '@toolwaves/core/internal';
import type { SoftErrorKind } from './soft-failure.js';

/** How one attempt ended, as the stages of the pipeline hand it on. */
export interface AttemptAnswer {
  readonly content: string;
  readonly isError: boolean;
  readonly kind: SoftErrorKind;
  readonly error?: unknown;
}

/** The message of a thrown value: `error.message` for errors, the value as text otherwise. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A soft error of an attempt. */
export function softError(kind: SoftErrorKind, content: string, error?: unknown): AttemptAnswer {
  return error === undefined
    ? { content, isError: true, kind }
    : { content, isError: true, kind, error };
}

/**
 * A tool's answer: a string is content; `{ content, isError? }` as is; `{ content, outcomeUnknown:
 * true }` the soft error `outcome_unknown` (a wrapper that knows the tool was cut off mid-run);
 * else `tool_error`.
 */
export function answerOf(toolName: string, output: unknown): AttemptAnswer {
  if (typeof output === 'string') return { content: output, isError: false, kind: 'tool_reported' };
  if (
    typeof output === 'object' &&
    output !== null &&
    typeof (output as ToolOutput).content === 'string'
  ) {
    const { content, isError, outcomeUnknown } = output as ToolOutput;
    if (outcomeUnknown === true) return softError('outcome_unknown', content);
    return { content, isError: isError === true, kind: 'tool_reported' };
  }
  return softError(
    'tool_error',
    `Tool \`${toolName}\` returned ${describeValue(output)}, not a string or { content }`,
  );
}

/** The soft error of a tool that threw (or rejected). */
export function thrownAnswer(toolName: string, error: unknown): AttemptAnswer {
  return softError('tool_error', `Tool \`${toolName}\` failed: ${errorMessage(error)}`, error);
}

/** The soft error `unknown_tool`, listing the `registered` tool names. */
export function unknownToolAnswer(toolName: string, registered: readonly string[]): AttemptAnswer {
  const known =
    registered.length === 0
      ? 'no tools are registered'
      : `registered tools: ${registered.map((name) => `\`${name}\``).join(', ')}`;
  return softError('unknown_tool', `Unknown tool \`${toolName}\`; ${known}`);
}

/** The soft error `lease_lost` of a tool whose fleet grant was lost, for `reason`. */
export function lostLeaseAnswer(toolName: string, reason: unknown): AttemptAnswer {
  const why = reason === undefined ? '' : `: ${errorMessage(reason)}`;
  return softError('lease_lost', `Tool \`${toolName}\` lost its fleet lease${why}`, reason);
}

/** The soft error `outcome_unknown` of a tool whose fleet grant was lost after it started. */
export function outcomeUnknownAnswer(toolName: string, reason: unknown): AttemptAnswer {
  const why = reason === undefined ? '' : ` (${errorMessage(reason)})`;
  return softError(
    'outcome_unknown',
    outcomeUnknownText({ toolName, cause: `lost its fleet lease while it ran${why}` }),
    reason,
  );
}

/** The soft error `coordination_failed`: the fleet coordinator refused the grant (`error`). */
export function refusedGrantAnswer(toolName: string, error: unknown): AttemptAnswer {
  return softError(
    'coordination_failed',
    `Tool \`${toolName}\` did not run: the fleet coordinator could not grant its accesses: ${errorMessage(error)}`,
    error,
  );
}
