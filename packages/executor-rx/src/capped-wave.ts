import { Observable, type Subscriber } from 'rxjs';
import type { DispatchEvent } from './dispatch-event.js';
import { operate } from './operate.js';

/** Options of {@link cappedWave}. */
export interface CappedWaveOptions {
  /** The wave's calls, ascending: they start in this order. */
  readonly calls: readonly number[];
  /** Calls running at once (an integer ≥ 1). */
  readonly cap: number;
  /** Call `index`'s events, subscribed once when it starts; it ends when they complete. */
  readonly run: (index: number) => Observable<DispatchEvent>;
}

/**
 * The calls of one wave under the cap: `mergeMap(run, cap)` over the wave's calls, in model
 * order, each as a slot frees up; it completes when the last call has. The slots are counted in
 * a plain loop rather than by `mergeMap`: nothing is made per call but the call's own observer,
 * and calls that end at once (synchronous tools) start the next one in the same loop, never a
 * deeper stack.
 *
 * @example
 * ```ts
 * cappedWave({ calls: [0, 1, 3, 5], cap: 2, run: (index) => runCall(batch, index, place) });
 * ```
 * @see limitedWave for a wave under the Dispatcher's named limits too.
 */
export function cappedWave(options: CappedWaveOptions): Observable<DispatchEvent> {
  return new Observable<DispatchEvent>((destination) => {
    new CappedWave(options, destination).pump();
  });
}

// One run of a wave, and the handlers of each of its calls' observers (a class: a call makes no
// closure, only the observer `operate` ties to the wave).
class CappedWave {
  /** The next call of the wave to start (its position in `calls`). */
  #next = 0;
  #running = 0;
  #pumping = false;
  #again = false;

  constructor(
    private readonly options: CappedWaveOptions,
    readonly destination: Subscriber<DispatchEvent>,
  ) {}

  /** Fills the free slots; re-entered (a call that ended at once) it loops instead. */
  pump(): void {
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    const { calls, cap, run } = this.options;
    const destination = this.destination;
    do {
      this.#again = false;
      while (this.#running < cap && this.#next < calls.length && !destination.closed) {
        const index = calls[this.#next]!;
        this.#next += 1;
        this.#running += 1;
        // Tied to the wave before it is subscribed: an unsubscribe reaches a synchronous stage.
        run(index).subscribe(operate<DispatchEvent>(this));
      }
    } while (this.#again);
    this.#pumping = false;
    if (this.#running === 0 && this.#next === calls.length) destination.complete();
  }

  next(event: DispatchEvent): void {
    this.destination.next(event);
  }

  error(error: unknown): void {
    this.destination.error(error);
  }

  /** A call ended: its slot is free. */
  complete(): void {
    this.#running -= 1;
    this.pump();
  }
}
