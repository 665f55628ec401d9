import { Observable, type Subscriber } from 'rxjs';
import { operate } from './operate.js';

/**
 * `count` Observables one after another, each subscribed once the one before it completed:
 * `concatMap` over their positions, without a subscriber of its own between each one's values
 * and the destination. One that completes at once (a wave of synchronous calls) lets the next
 * start in the same loop, not a deeper stack, however many there are.
 *
 * @example
 * ```ts
 * oneAfterAnother(plan.waves.length, (position) => wave(plan.waves[position]!.calls, position));
 * ```
 */
export function oneAfterAnother<T>(
  count: number,
  run: (position: number) => Observable<T>,
): Observable<T> {
  return new Observable<T>((destination) => {
    new Sequence(count, run, destination).pump();
  });
}

// One run of the sequence, and the handlers of each one's observer (a class: one object for them
// all; only one runs at a time, and a closed observer calls no handler).
class Sequence<T> {
  /** The next one to subscribe. */
  #next = 0;
  #running = false;
  #pumping = false;
  #again = false;

  constructor(
    private readonly count: number,
    private readonly run: (position: number) => Observable<T>,
    readonly destination: Subscriber<T>,
  ) {}

  /** Subscribes the next one, or completes; re-entered (one that completed at once) it loops. */
  pump(): void {
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    const destination = this.destination;
    do {
      this.#again = false;
      if (this.#running || destination.closed) break;
      if (this.#next === this.count) {
        destination.complete();
        break;
      }
      const position = this.#next;
      this.#next += 1;
      this.#running = true;
      // Tied to the destination before it is subscribed: an unsubscribe reaches a synchronous one.
      this.run(position).subscribe(operate<T>(this));
    } while (this.#again);
    this.#pumping = false;
  }

  next(value: T): void {
    this.destination.next(value);
  }

  error(error: unknown): void {
    this.destination.error(error);
  }

  complete(): void {
    this.#running = false;
    this.pump();
  }
}
