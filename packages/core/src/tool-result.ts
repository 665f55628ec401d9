/**
 * The answer to one tool call, in the slot of the call it answers. A soft error is a normal
 * result with `isError: true`.
 */
export interface ToolResult {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: string;
  readonly isError: boolean;
  /** Time the call ran, in ms, excluding time spent waiting for a slot. */
  readonly durationMs: number;
}
