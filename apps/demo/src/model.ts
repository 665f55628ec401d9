import type { ToolCall, ToolResult } from '@toolwaves/core';

/**
 * How a turn was written, in clock readings (ms) filled in while the model streams it; all are
 * set once the turn's `calls` have ended.
 */
export interface TurnWriting {
  /** What the model said on this turn (known up front for the scripted model). */
  text: string | undefined;
  /** When the model began writing the turn. */
  startedAt: number;
  /** When the first token of its first tool call came (`undefined`: no call). */
  firstCallTokenAt: number | undefined;
  /** When the model stopped writing. */
  endedAt: number | undefined;
}

/**
 * One turn of the model, as it streams: its calls, each the moment the model has finished
 * writing it. A turn with no calls is the model's final answer.
 */
export interface ModelTurn {
  readonly calls: AsyncIterable<ToolCall>;
  readonly writing: TurnWriting;
}

/**
 * A model driving the agent loop. `next` gets the results of the previous turn's calls (in the
 * model's order; none on the first turn) and starts writing the next turn.
 */
export interface Model {
  /** Shown in the demo's header. */
  readonly label: string;
  next(previous: readonly ToolResult[]): Promise<ModelTurn>;
}
