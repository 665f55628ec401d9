import type { ToolContext } from '@toolwaves/core';

/** Why an attempt's signal was aborted before anyone read it. */
interface Aborted {
  readonly reason: unknown;
}

/** The {@link ToolContext} of one attempt of one call. */
export class AttemptContext implements ToolContext {
  readonly toolCallId: string;
  readonly attempt: number;
  declare readonly fencingToken?: number;
  // One TS-private field, not `#` fields: this object is made for every attempt of every call,
  // and its size and kind of fields show in the dispatcher's per-call overhead.
  /** The signal's controller once read, or why it was aborted before. */
  private state: AbortController | Aborted | undefined;

  constructor(toolCallId: string, attempt: number) {
    this.toolCallId = toolCallId;
    this.attempt = attempt;
    this.state = undefined;
  }

  get signal(): AbortSignal {
    const state = this.state;
    if (state instanceof AbortController) return state.signal;
    const controller = new AbortController();
    if (state !== undefined) controller.abort(state.reason);
    this.state = controller;
    return controller.signal;
  }

  /** Aborts the attempt's signal (once; later calls do nothing). */
  static abort(context: AttemptContext, reason: unknown): void {
    const state = context.state;
    if (state === undefined) context.state = { reason };
    else if (state instanceof AbortController) state.abort(reason);
  }

  /** The fencing token of the attempt's fleet grant, before its tool runs. */
  static fence(context: AttemptContext, fencingToken: number | undefined): void {
    if (fencingToken !== undefined) {
      (context as { fencingToken?: number }).fencingToken = fencingToken;
    }
  }
}
