import { type Observer, Subscription } from 'rxjs';

/** The handlers of an observer ({@link operate}, {@link detached}). They are called as methods of
 * this object, so a class instance may be the handlers (its methods made once, not per call). */
export interface ObserverHandlers<T> {
  /** Each value (until it is closed). */
  readonly next: (value: T) => void;
  /** The source's error (once; it is closed first). Default: nothing. */
  readonly error?: ((error: unknown) => void) | undefined;
  /** The source's completion (once; it is closed first). Default: nothing. */
  readonly complete?: (() => void) | undefined;
  /** When it is closed, for any reason (error, completion, unsubscription). */
  readonly finalize?: (() => void) | undefined;
}

/** Options of {@link operate}: RxJS 8's `operate()` shape. */
export interface OperateOptions<T> extends ObserverHandlers<T> {
  /** What it is tied to: unsubscribing `destination` unsubscribes it (and what it subscribed). */
  readonly destination: Subscription;
}

/**
 * An observer tied to `destination` before it subscribes to anything: pass it to `subscribe`.
 * RxJS uses an observer that is also a `Subscription` as the subscriber itself, so the source's
 * teardown is added to it during `subscribe`, and a stop that comes while a synchronous source
 * is still emitting (an unsubscribe from a pre hook, a cancel) closes it at once: the source sees
 * `closed` and emits nothing more. The shape of RxJS 8's internal `operate()`, on public API only.
 *
 * @example
 * ```ts
 * new Observable<number>((destination) => {
 *   source.subscribe(operate({ destination, next: (n) => destination.next(n * 2) }));
 * });
 * ```
 */
export function operate<T>(options: OperateOptions<T>): Observer<T> & Subscription {
  const observer = new OperatorObserver<T>(options, options.destination);
  options.destination.add(observer);
  return observer;
}

/**
 * An observer that is its own Subscription, as {@link operate} makes, but tied to nothing: for an
 * owner that is itself stopped with the destination, and unsubscribes the observer then (an
 * attempt's stage: its call's attempts stop it). Nothing is added to a destination and taken out
 * again for it.
 *
 * @example
 * ```ts
 * this.waiting = detached(this); // this: next, error (and this.unsubscribe() stops the waiting)
 * stage.subscribe(this.waiting);
 * ```
 */
export function detached<T>(handlers: ObserverHandlers<T>): Observer<T> & Subscription {
  return new OperatorObserver<T>(handlers, undefined);
}

// TS-private fields, not `#` fields: one is made for every stage of every attempt of every call,
// and `#` fields on this subclass of Subscription cost about 50 ns more per observer made and closed.
/** The observer {@link operate} and {@link detached} make (a Subscription: no Subscriber is made
 * or extended). */
class OperatorObserver<T> extends Subscription implements Observer<T> {
  private readonly options: ObserverHandlers<T>;
  private readonly destination: Subscription | undefined;
  private stopped: boolean;

  constructor(options: ObserverHandlers<T>, destination: Subscription | undefined) {
    super(options.finalize === undefined ? undefined : () => options.finalize?.());
    this.options = options;
    this.destination = destination;
    this.stopped = false;
  }

  next(value: T): void {
    if (!this.stopped && !this.closed) this.options.next(value);
  }

  error(error: unknown): void {
    if (this.stopped || this.closed) return;
    this.stopped = true;
    try {
      this.options.error?.(error);
    } finally {
      this.closeAfterHandler();
    }
  }

  complete(): void {
    if (this.stopped || this.closed) return;
    this.stopped = true;
    try {
      this.options.complete?.();
    } finally {
      this.closeAfterHandler();
    }
  }

  // As a Subscriber does: stopped before its handler runs, closed (and untied) after it.
  private closeAfterHandler(): void {
    this.destination?.remove(this);
    this.unsubscribe();
  }
}
