import type { CallOutcome } from './dispatch-event.js';

/** A running call the batch can stop. */
export interface StoppableCall {
  /** Whether the call has ended (it then leaves the calls in flight). */
  readonly ended: boolean;
  /** Ends the call now: its open attempt gets a `call-end` with this outcome, its signal aborts. */
  stop(outcome: Extract<CallOutcome, 'cancelled' | 'aborted'>): void;
  /** Ends the call quietly (nobody listens any more): timers cleared, its tool told to stop. */
  abandon(): void;
}

/** Below this many entries ended calls are left in place; above it they are swept out. */
const SWEEP_FROM = 32;

/**
 * The calls of a batch that are running, in the order they started, for the batch to stop them.
 * A call that ends is only counted out (no hashing, no search): ended calls are swept out in one
 * pass once they are most of the list, so adding and ending cost O(1) amortized and the list
 * stays within twice the calls running.
 *
 * @example
 * ```ts
 * const inFlight = new CallsInFlight();
 * inFlight.add(call);              // when it starts
 * inFlight.ended();                // when it ends (after `call.ended` became true)
 * for (const running of inFlight.running()) running.stop('cancelled');
 * ```
 * @see BatchState which stops them on a hard error or a cancel.
 */
export class CallsInFlight {
  #calls: StoppableCall[] = [];
  #running = 0;

  /** How many calls are running. */
  get size(): number {
    return this.#running;
  }

  /** A call starts. */
  add(call: StoppableCall): void {
    this.#calls.push(call);
    this.#running += 1;
  }

  /** A call that was added has ended (`call.ended` is now true); once per call. */
  ended(): void {
    this.#running -= 1;
    const calls = this.#calls;
    if (calls.length > SWEEP_FROM && this.#running * 2 < calls.length) {
      this.#calls = calls.filter((call) => !call.ended);
    }
  }

  /** The calls running now, in the order they started (a copy: stopping one ends it). */
  running(): StoppableCall[] {
    return this.#calls.filter((call) => !call.ended);
  }
}
