import type { ToolContext } from '@toolwaves/core';

/**
 * The {@link ToolContext} of one attempt of one call, with the attempt's own `AbortSignal`,
 * created on first read: a tool or hook that never looks at its signal costs no
 * `AbortController`. The signal is the call's own, never the batch's: the batch aborts it
 * (through its calls in flight) on a hard error or a cancel, the attempt's timeout or a lost
 * fleet lease aborts it too, and once the attempt has ended nothing aborts it any more — so
 * listeners a tool leaves on it never pile up on a batch-wide signal. Read after an abort, it
 * is already aborted with the reason.
 *
 * Only the pipeline aborts it or sets its fencing token (static methods: a tool sees nothing
 * but the {@link ToolContext}).
 */
export class AttemptContext implements ToolContext {
  readonly toolCallId: string;
  readonly attempt: number;
  declare readonly fencingToken?: number;
  // TS-private, not `#`: this object is made for every attempt, and `#` fields cost more here.
  private controller: AbortController | undefined;
  private aborted = false;
  private reason: unknown;

  constructor(toolCallId: string, attempt: number) {
    this.toolCallId = toolCallId;
    this.attempt = attempt;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Aborts the attempt's signal (once; later calls do nothing). */
  static abort(context: AttemptContext, reason: unknown): void {
    if (context.aborted) return;
    context.aborted = true;
    context.reason = reason;
    context.controller?.abort(reason);
  }

  /** The fencing token of the attempt's fleet grant, before its tool runs. */
  static fence(context: AttemptContext, fencingToken: number | undefined): void {
    if (fencingToken !== undefined) {
      (context as { fencingToken?: number }).fencingToken = fencingToken;
    }
  }
}
