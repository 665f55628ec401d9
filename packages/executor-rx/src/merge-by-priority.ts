import {
  from,
  Observable,
  type ObservableInput,
  type OperatorFunction,
  type Subscriber,
  type Subscription,
} from 'rxjs';

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
 * subscribed. Work-conserving: a value never waits while a slot is free. Values the source
 * emits synchronously when subscribed to (a whole batch) compete together, as do values that
 * arrive during `onEnd`. An error from the
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
  return (source) =>
    new Observable<R>((subscriber) => {
      new PriorityMerge(subscriber, project, options).subscribeTo(source);
    });
}

/**
 * The state of one subscription to {@link mergeByPriority}. Written as classes, not closures:
 * nothing is allocated per value beyond its inner subscription and one small observer.
 */
class PriorityMerge<T, R> {
  readonly subscriber: Subscriber<R>;
  readonly #project: (value: T) => ObservableInput<R>;
  readonly #concurrency: number;
  readonly #onEnd: ((value: T) => void) | undefined;
  readonly #waiting: WaitingValues<T>;
  #active = 0;
  #sourceDone = false;
  /** Inside `drain`'s loop, or inside `onEnd`: starting now would skip the queue. */
  #busy = false;

  constructor(
    subscriber: Subscriber<R>,
    project: (value: T) => ObservableInput<R>,
    options: MergeByPriorityOptions<T>,
  ) {
    this.subscriber = subscriber;
    this.#project = project;
    this.#concurrency = options.concurrency;
    this.#onEnd = options.onEnd;
    this.#waiting = new WaitingValues<T>(options.compare);
  }

  subscribeTo(source: Observable<T>): void {
    // What the source emits while it is being subscribed to arrives together: those values
    // compete for the slots by priority, not by who came first.
    this.#busy = true;
    try {
      this.subscriber.add(source.subscribe(new SourceObserver(this)));
    } finally {
      this.#busy = false;
    }
    this.drain();
  }

  arrive(value: T): void {
    if (!this.#busy && this.#active < this.#concurrency && this.#waiting.size === 0) {
      // Nothing waits and a slot is free: it starts now (what `drain` would do, without the queue).
      this.#busy = true;
      try {
        if (!this.subscriber.closed) this.#start(value);
      } finally {
        this.#busy = false;
      }
      this.drain();
      return;
    }
    this.#waiting.push(value);
    this.drain();
  }

  sourceComplete(): void {
    this.#sourceDone = true;
    this.drain();
  }

  /** Starts waiting values while slots are free, best first; completes when all is done. */
  drain(): void {
    if (this.#busy) return;
    this.#busy = true;
    const subscriber = this.subscriber;
    const waiting = this.#waiting;
    try {
      while (this.#active < this.#concurrency && waiting.size > 0 && !subscriber.closed) {
        this.#start(waiting.pop() as T);
      }
    } finally {
      this.#busy = false;
    }
    if (this.#sourceDone && this.#active === 0 && waiting.size === 0) subscriber.complete();
  }

  /** An inner Observable completed: `onEnd`, then its slot goes to the best waiting value. */
  innerComplete(inner: InnerObserver<T, R>): void {
    const subscription = inner.subscription;
    if (subscription !== undefined) this.subscriber.remove(subscription);
    const onEnd = this.#onEnd;
    if (onEnd !== undefined) {
      const wasBusy = this.#busy;
      this.#busy = true;
      try {
        onEnd(inner.value);
      } finally {
        this.#busy = wasBusy;
      }
    }
    this.#active -= 1;
    this.drain();
  }

  #start(value: T): void {
    this.#active += 1;
    let input: ObservableInput<R>;
    try {
      input = this.#project(value);
    } catch (error) {
      this.subscriber.error(error);
      return;
    }
    const inner = new InnerObserver(this, value);
    const subscription = from(input).subscribe(inner);
    // One that completed at once is already gone; the others are stopped with the result.
    if (!subscription.closed) {
      inner.subscription = subscription;
      this.subscriber.add(subscription);
    }
  }
}

/** Forwards the source's values to the merge. */
class SourceObserver<T, R> {
  readonly #merge: PriorityMerge<T, R>;

  constructor(merge: PriorityMerge<T, R>) {
    this.#merge = merge;
  }

  next(value: T): void {
    this.#merge.arrive(value);
  }

  error(error: unknown): void {
    this.#merge.subscriber.error(error);
  }

  complete(): void {
    this.#merge.sourceComplete();
  }
}

/** Observes the inner Observable of one value. */
class InnerObserver<T, R> {
  /** Set once subscribed, unless it completed while being subscribed to. */
  subscription: Subscription | undefined;
  readonly value: T;
  readonly #merge: PriorityMerge<T, R>;

  constructor(merge: PriorityMerge<T, R>, value: T) {
    this.#merge = merge;
    this.value = value;
  }

  next(result: R): void {
    this.#merge.subscriber.next(result);
  }

  error(error: unknown): void {
    this.#merge.subscriber.error(error);
  }

  complete(): void {
    this.#merge.innerComplete(this);
  }
}

/**
 * The waiting values, best first under `compare`. Values that arrive already in order (each
 * at least as late as the one before it, the usual case: calls in model order) wait in a plain
 * queue, at no cost; the others in a binary heap. `pop` takes the better of the two fronts.
 */
class WaitingValues<T> {
  /** Values in ascending order, from `#head` on. */
  #ordered: T[] = [];
  #head = 0;
  readonly #heap: BinaryHeap<T>;
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
    this.#heap = new BinaryHeap(compare);
  }

  get size(): number {
    return this.#ordered.length - this.#head + this.#heap.size;
  }

  push(value: T): void {
    const ordered = this.#ordered;
    if (
      ordered.length === this.#head ||
      this.#compare(ordered[ordered.length - 1] as T, value) <= 0
    ) {
      ordered.push(value);
    } else {
      this.#heap.push(value);
    }
  }

  /** Removes and returns the best value; only call when `size > 0`. */
  pop(): T | undefined {
    const ordered = this.#ordered;
    const heap = this.#heap;
    if (
      this.#head < ordered.length &&
      (heap.size === 0 || this.#compare(ordered[this.#head] as T, heap.peek() as T) <= 0)
    ) {
      const value = ordered[this.#head] as T;
      this.#head += 1;
      if (this.#head >= 1024 && this.#head * 2 >= ordered.length) {
        // Drop the taken front now and then (amortized: no work per value), so a long run
        // does not keep it.
        this.#ordered = ordered.slice(this.#head);
        this.#head = 0;
      }
      return value;
    }
    return heap.pop();
  }
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

  /** The first item, left in place. */
  peek(): T | undefined {
    return this.#items[0];
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
