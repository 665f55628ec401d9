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
  declare readonly markCommitted?: () => void;
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

  /**
   * The attempt's fleet grant, before its tool runs: its fencing token, and `markCommitted`
   * (set only then: a call with no grant has no lease to lose). Tells whether the tool marked
   * its effect committed.
   */
  static granted(context: AttemptContext, fencingToken: number | undefined): () => boolean {
    const granted = context as { fencingToken?: number; markCommitted?: () => void };
    if (fencingToken !== undefined) granted.fencingToken = fencingToken;
    let committed = false;
    granted.markCommitted = () => {
      committed = true;
    };
    return () => committed;
  }
}
