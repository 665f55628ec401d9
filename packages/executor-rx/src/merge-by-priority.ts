import { from, Observable, type ObservableInput, type OperatorFunction, Subscription } from 'rxjs';

/** Options of {@link mergeByPriority}. */
export interface MergeByPriorityOptions<T> {
  /** Inner Observables subscribed at once: an integer ≥ 1. */
  readonly concurrency: number;
  /** Which waiting value starts first: negative when `a` goes before `b`. */
  readonly compare: (a: T, b: T) => number;
  /**
   * Called when the inner Observable of `value` completes, before its slot is given to the
   * next value. Values that arrive during the call wait for that slot with the others and are
   * taken by priority (so a slot freed by an end goes to the best value its end made ready).
   */
  readonly onEnd?: ((value: T) => void) | undefined;
}

/**
 * `mergeMap` under a cap whose waiting values start by priority instead of first in, first
 * out: whenever a slot is free, the waiting value that `compare` puts first is projected and
 * subscribed. Work-conserving: a value never waits while a slot is free. An error from the
 * source or from an inner Observable errors the result and unsubscribes every inner one.
 * Inner Observables that complete synchronously start the next ones from a loop, not from
 * nested calls, so any number of them runs in constant stack depth.
 *
 * @example
 * ```ts
 * // With one slot: 1 runs first (it arrived first), then 3 before 2 (largest first).
 * of(1, 2, 3).pipe(mergeByPriority((n) => timer(n), { concurrency: 1, compare: (a, b) => b - a }));
 * ```
 * @see scheduleEager which starts tool calls with it.
 */
export function mergeByPriority<T, R>(
  project: (value: T) => ObservableInput<R>,
  options: MergeByPriorityOptions<T>,
): OperatorFunction<T, R> {
  const { concurrency, compare, onEnd } = options;
  return (source) =>
    new Observable<R>((subscriber) => {
      const waiting = new BinaryHeap<T>(compare);
      let active = 0;
      let sourceDone = false;
      /** Inside `drain`'s loop, or inside `onEnd`: starting now would skip the queue. */
      let busy = false;

      const drain = (): void => {
        if (busy) return;
        busy = true;
        try {
          while (active < concurrency && waiting.size > 0 && !subscriber.closed) {
            start(waiting.pop() as T);
          }
        } finally {
          busy = false;
        }
        if (sourceDone && active === 0 && waiting.size === 0) subscriber.complete();
      };

      const start = (value: T): void => {
        active += 1;
        const inner = new Subscription();
        subscriber.add(inner);
        let input: ObservableInput<R>;
        try {
          input = project(value);
        } catch (error) {
          subscriber.error(error);
          return;
        }
        inner.add(
          from(input).subscribe({
            next: (result) => subscriber.next(result),
            error: (error: unknown) => subscriber.error(error),
            complete: () => {
              subscriber.remove(inner);
              if (onEnd !== undefined) {
                const wasBusy = busy;
                busy = true;
                try {
                  onEnd(value);
                } finally {
                  busy = wasBusy;
                }
              }
              active -= 1;
              drain();
            },
          }),
        );
      };

      subscriber.add(
        source.subscribe({
          next: (value) => {
            waiting.push(value);
            drain();
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            sourceDone = true;
            drain();
          },
        }),
      );
    });
}

/** A binary min-heap under `compare`; ties leave in no particular order (make `compare` total). */
class BinaryHeap<T> {
  readonly #items: T[] = [];
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  get size(): number {
    return this.#items.length;
  }

  push(item: T): void {
    const items = this.#items;
    let at = items.push(item) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (this.#compare(items[parent] as T, item) <= 0) break;
      items[at] = items[parent] as T;
      at = parent;
    }
    items[at] = item;
  }

  /** Removes and returns the first item; only call when `size > 0`. */
  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop() as T;
    const size = items.length;
    if (size === 0) return top;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= size) break;
      const right = left + 1;
      const child =
        right < size && this.#compare(items[right] as T, items[left] as T) < 0 ? right : left;
      if (this.#compare(items[child] as T, last) >= 0) break;
      items[at] = items[child] as T;
      at = child;
    }
    items[at] = last;
    return top;
  }
}
