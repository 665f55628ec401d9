import type { SchedulerLike } from 'rxjs';

/** Options of {@link BatchClock}. */
export interface BatchClockOptions {
  /** The dispatcher's clock. */
  readonly scheduler: SchedulerLike;
  /**
   * Only the dispatcher's own code runs between an answer and the attempts its end lets begin:
   * no listener sees the batch's events (`dispatch` without `onEvent`), and there are no post
   * hooks, no recovery and no instrumentation.
   */
  readonly quiet: boolean;
}

/**
 * A batch's clock: the dispatcher's scheduler, read for every time an event or result carries,
 * but once per attempt where it can. In a quiet batch (see {@link BatchClockOptions.quiet}), the
 * time read for an answer (or a wave's start) is handed to the first attempt that begins in the
 * same synchronous step (the call the answer's end freed a slot for), as the time it began: the
 * clock read again there would tell the same time (virtual time does not move inside a
 * synchronous step, and a real clock moves by the microseconds the dispatcher's own code takes),
 * and a clock read costs about as much as the rest of that step. The first attempt takes it, and
 * it is dropped when the step ends: an attempt that begins after any tool, hook or listener ran
 * reads the clock.
 *
 * @example
 * ```ts
 * clock.hand(answeredAt);
 * try { subscriber.complete(); } finally { clock.drop(); } // the next call's attempt: began()
 * ```
 */
export class BatchClock {
  readonly #scheduler: SchedulerLike;
  readonly #quiet: boolean;
  /** The time handed to the next attempt to begin, if any. */
  #handed: number | undefined = undefined;

  constructor(options: BatchClockOptions) {
    this.#scheduler = options.scheduler;
    this.#quiet = options.quiet;
  }

  /** Now, on the dispatcher's clock. */
  now(): number {
    return this.#scheduler.now();
  }

  /** `time` was read just now: the next attempt to begin before {@link BatchClock.drop} takes it
   * (in a quiet batch; else nothing is handed). */
  hand(time: number): void {
    if (this.#quiet) this.#handed = time;
  }

  /** The synchronous step that {@link BatchClock.hand} began is over: nothing is handed. */
  drop(): void {
    this.#handed = undefined;
  }

  /** An attempt begins: the time handed to it, else the clock's. */
  began(): number {
    const handed = this.#handed;
    if (handed === undefined) return this.#scheduler.now();
    this.#handed = undefined;
    return handed;
  }
}
