import type { ToolContext } from '@toolwaves/core';

/**
 * The `AbortSignal` of one attempt of one call, created on first read: a tool or hook that
 * never looks at its signal costs no `AbortController`. It is the call's own, never the
 * batch's: the batch aborts it (through its calls in flight) on a hard error or a cancel, the
 * attempt's timeout or a lost fleet lease aborts it too, and once the attempt has ended nothing
 * aborts it any more — so listeners a tool leaves on it never pile up on a batch-wide signal.
 * Read after an abort, it is already aborted with the reason.
 */
export class AttemptSignal {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts the signal (once; later calls do nothing). */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** Options of {@link AttemptToolContext}. */
export interface AttemptToolContextOptions {
  readonly toolCallId: string;
  readonly attempt: number;
  readonly signal: AttemptSignal;
  /** From the fleet coordinator's grant, when it gave one. */
  readonly fencingToken: number | undefined;
}

/** The {@link ToolContext} of one attempt, its signal read through {@link AttemptSignal}. */
export class AttemptToolContext implements ToolContext {
  readonly toolCallId: string;
  readonly attempt: number;
  declare readonly fencingToken?: number;
  readonly #signal: AttemptSignal;

  constructor(options: AttemptToolContextOptions) {
    this.toolCallId = options.toolCallId;
    this.attempt = options.attempt;
    this.#signal = options.signal;
    if (options.fencingToken !== undefined) {
      (this as { fencingToken?: number }).fencingToken = options.fencingToken;
    }
  }

  get signal(): AbortSignal {
    return this.#signal.signal;
  }
}
