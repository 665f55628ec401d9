import type { ToolCall, ToolResult } from '@toolwaves/core';

/** What the model answers on one turn: tool calls to run, or (with none) its final words. */
export interface ModelTurn {
  readonly calls: readonly ToolCall[];
  /** What the model says on this turn, shown to the user. */
  readonly text?: string;
}

/**
 * A model driving the agent loop. `next` gets the results of the previous turn's calls (in the
 * model's order; none on the first turn) and answers the next turn.
 */
export interface Model {
  /** Shown in the demo's header. */
  readonly label: string;
  next(previous: readonly ToolResult[]): Promise<ModelTurn>;
}
