import { type Observer, Subscription } from 'rxjs';

/** Options of {@link operate}: RxJS 8's `operate()` shape. The handlers are called as methods of
 * this object, so a class instance may be the options (its methods made once, not per call). */
export interface OperateOptions<T> {
  /** What it is tied to: unsubscribing `destination` unsubscribes it (and what it subscribed). */
  readonly destination: Subscription;
  /** Each value (until it is closed). */
  readonly next: (value: T) => void;
  /** The source's error (once; it is closed first). Default: nothing. */
  readonly error?: ((error: unknown) => void) | undefined;
  /** The source's completion (once; it is closed first). Default: nothing. */
  readonly complete?: (() => void) | undefined;
  /** When it is closed, for any reason (error, completion, unsubscription). */
  readonly finalize?: (() => void) | undefined;
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
  const observer = new OperatorObserver<T>(options);
  options.destination.add(observer);
  return observer;
}

// TS-private fields, not `#` fields: one is made for every stage of every attempt of every call,
// and `#` fields on this subclass of Subscription cost about 50 ns more per observer made and closed.
/** The observer {@link operate} makes (a Subscription: no Subscriber is made or extended). */
class OperatorObserver<T> extends Subscription implements Observer<T> {
  private readonly options: OperateOptions<T>;
  private stopped: boolean;

  constructor(options: OperateOptions<T>) {
    super(options.finalize === undefined ? undefined : () => options.finalize?.());
    this.options = options;
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
    this.options.destination.remove(this);
    this.unsubscribe();
  }
}
