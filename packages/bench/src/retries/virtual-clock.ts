import { type SchedulerAction, type SchedulerLike, Subscription } from 'rxjs';

/** One timer of the clock. */
interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
  cancelled: boolean;
}

/**
 * A clock that only moves when every promise has settled: real code (the `Dispatcher`, tools
 * that sleep on it) runs on it as on the real clock, but time jumps from one timer to the next,
 * so the figures do not depend on the machine's load and one seed always gives the same ones.
 * It is the Dispatcher's `scheduler`; tools wait with {@link VirtualClock.sleep}.
 *
 * @example
 * ```ts
 * const clock = new VirtualClock();
 * const dispatcher = new Dispatcher({ registry, mode: 'eager', scheduler: clock });
 * const results = dispatcher.dispatchStream(source);
 * await clock.runUntilIdle();
 * ```
 */
export class VirtualClock implements SchedulerLike {
  #now = 0;
  #seq = 0;
  readonly #timers: Timer[] = [];

  /** The time, ms. */
  now(): number {
    return this.#now;
  }

  schedule<T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    delay = 0,
    state?: T,
  ): Subscription {
    const timer: Timer = {
      at: this.#now + Math.max(0, delay),
      seq: this.#seq++,
      run: () => work.call(action, state),
      cancelled: false,
    };
    const action = new Subscription(() => {
      timer.cancelled = true;
    }) as Subscription & SchedulerAction<T>;
    action.schedule = (next?: T, nextDelay?: number) => this.schedule(work, nextDelay, next);
    this.#timers.push(timer);
    return action;
  }

  /** Resolves `ms` later on this clock; rejects with the signal's reason once it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        timer.unsubscribe();
        reject(signal?.reason);
      };
      const timer = this.schedule(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Runs the timers in time order (ties in the order they were set), letting every promise
   * settle before each, until none is left.
   */
  async runUntilIdle(): Promise<void> {
    for (;;) {
      // A macrotask: every microtask queued so far (and those they queue) has run.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const next = this.#takeNext();
      if (next === undefined) return;
      this.#now = next.at;
      next.run();
    }
  }

  #takeNext(): Timer | undefined {
    let best = -1;
    for (let i = 0; i < this.#timers.length; i++) {
      const timer = this.#timers[i]!;
      if (timer.cancelled) continue;
      const chosen = this.#timers[best];
      if (
        chosen === undefined ||
        timer.at < chosen.at ||
        (timer.at === chosen.at && timer.seq < chosen.seq)
      ) {
        best = i;
      }
    }
    const timers = this.#timers;
    const next = best < 0 ? undefined : timers[best];
    // Drop the cancelled timers and the one taken.
    const kept = timers.filter((timer, i) => i !== best && !timer.cancelled);
    timers.length = 0;
    timers.push(...kept);
    return next;
  }
}
