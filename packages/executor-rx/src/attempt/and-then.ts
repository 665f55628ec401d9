import { isObservable, Observable, type Subscriber } from 'rxjs';
import { operate } from '../operate.js';

/**
 * The next stage of an attempt after `staged`: called at once with a value, or with the one value
 * an Observable stage emits. Every stage emits exactly one value (or errors), so this is `concatMap`
 * for one value, without an inner subscription when the stage has nothing to wait for.
 *
 * @example
 * ```ts
 * andThen(validate(attempt), (input) => keysClear(attempt, input)); // a value, or an Observable
 * ```
 */
export function andThen<T, R>(
  staged: Observable<T> | T,
  stage: (value: T) => Observable<R> | R,
): Observable<R> | R {
  if (!isObservable(staged)) return stage(staged as T);
  return new Observable<R>((destination) => {
    staged.subscribe(operate<T>(new Step(destination, stage)));
  });
}

// The handlers of one `andThen` in flight (a class: its methods are not made per call): the
// stage's result is forwarded; it completes when the source and the stage's result both have.
class Step<T, R> {
  #inner = false;
  #outerDone = false;

  constructor(
    readonly destination: Subscriber<R>,
    private readonly stage: (value: T) => Observable<R> | R,
  ) {}

  next(value: T): void {
    const result = this.stage(value);
    if (!isObservable(result)) {
      this.destination.next(result);
      return;
    }
    this.#inner = true;
    result.subscribe(operate<R>(new StageResult<T, R>(this)));
  }

  error(error: unknown): void {
    this.destination.error(error);
  }

  complete(): void {
    this.#outerDone = true;
    if (!this.#inner) this.destination.complete();
  }

  /** The stage's Observable completed. */
  innerComplete(): void {
    this.#inner = false;
    if (this.#outerDone) this.destination.complete();
  }
}

/** The handlers of a stage's Observable result, forwarded to its {@link Step}'s destination. */
class StageResult<T, R> {
  readonly destination: Subscriber<R>;

  constructor(private readonly step: Step<T, R>) {
    this.destination = step.destination;
  }

  next(value: R): void {
    this.destination.next(value);
  }

  error(error: unknown): void {
    this.destination.error(error);
  }

  complete(): void {
    this.step.innerComplete();
  }
}
