import { Observable, type Observer, type Subscriber, type Subscription } from 'rxjs';
import type { CallSubscriber } from './call-batch.js';
import type { DispatchEvent } from './dispatch-event.js';
import { detached } from './operate.js';

/** Options of {@link cappedWave}. */
export interface CappedWaveOptions {
  /** The wave's calls, ascending: they start in this order. */
  readonly calls: readonly number[];
  /** Calls running at once (an integer ≥ 1). */
  readonly cap: number;
  /**
   * Starts call `index` with `subscriber` as its subscriber (its events go to it, it ends when it
   * completes; unsubscribing it stops the call): what `runCall(…).subscribe(subscriber)` does,
   * without an Observable made and subscribed per call (`startCall`).
   */
  readonly start: (index: number, subscriber: CallSubscriber) => void;
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
 * cappedWave({ calls: [0, 1, 3, 5], cap: 2, start: (index, subscriber) => startCall(…, subscriber) });
 * ```
 * @see limitedWave for a wave under the Dispatcher's named limits too.
 */
export function cappedWave(options: CappedWaveOptions): Observable<DispatchEvent> {
  return new Observable<DispatchEvent>((destination) => {
    const wave = new CappedWave(options, destination);
    // Its teardown before any call starts: an unsubscribe in a synchronous stage reaches it.
    destination.add(wave);
    wave.pump();
  });
}

// One run of a wave. Its running calls' observers are kept in its slots, not tied to the wave's
// subscriber: tying one (`operate`) and untying it again when the call ends costs a splice of the
// subscriber's teardown list per call; the wave's one teardown stops those still running.
class CappedWave {
  /** The next call of the wave to start (its position in `calls`). */
  #next = 0;
  #running = 0;
  #pumping = false;
  #again = false;
  /** Per slot, the observer of the call running in it (its start position in `started`). */
  readonly #observers: (Subscription | undefined)[] = [];
  readonly #started: number[] = [];
  /** Per slot, the handlers of its observers (made once per slot, not per call). */
  readonly #slots: WaveSlot[] = [];
  /** Slots free again, reused before new ones are made. */
  readonly #free: number[] = [];

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
    const { calls, cap, start } = this.options;
    const destination = this.destination;
    do {
      this.#again = false;
      while (this.#running < cap && this.#next < calls.length && !destination.closed) {
        const index = calls[this.#next]!;
        const slot = this.#slot();
        // Kept in its slot before it starts: an unsubscribe reaches a synchronous stage.
        const observer = detached<DispatchEvent>(this.#slots[slot]!);
        this.#observers[slot] = observer;
        this.#started[slot] = this.#next;
        this.#next += 1;
        this.#running += 1;
        start(index, observer);
      }
    } while (this.#again);
    this.#pumping = false;
    if (this.#running === 0 && this.#next === this.options.calls.length) destination.complete();
  }

  /** The wave was unsubscribed from (or ended): the calls still running stop, in start order. */
  unsubscribe(): void {
    const running: number[] = [];
    this.#observers.forEach((observer, slot) => {
      if (observer !== undefined) running.push(slot);
    });
    running.sort((a, b) => this.#started[a]! - this.#started[b]!);
    for (const slot of running) {
      const observer = this.#observers[slot];
      this.#observers[slot] = undefined;
      observer?.unsubscribe();
    }
  }

  /** A call ended in `slot`: the slot is free. */
  ended(slot: number): void {
    this.#observers[slot] = undefined;
    this.#free.push(slot);
    this.#running -= 1;
    this.pump();
  }

  #slot(): number {
    const free = this.#free.pop();
    if (free !== undefined) return free;
    const slot = this.#slots.length;
    this.#slots.push(new WaveSlot(this, slot));
    return slot;
  }
}

/** The handlers of the observers of one slot of a wave (a class: its methods are made once). */
class WaveSlot implements Observer<DispatchEvent> {
  constructor(
    private readonly wave: CappedWave,
    private readonly slot: number,
  ) {}

  next(event: DispatchEvent): void {
    this.wave.destination.next(event);
  }

  error(error: unknown): void {
    this.wave.destination.error(error);
  }

  complete(): void {
    this.wave.ended(this.slot);
  }
}
