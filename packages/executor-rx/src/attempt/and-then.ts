import { isObservable, Observable, type Subscriber } from 'rxjs';
import { operate } from '../operate.js';

/**
 * The next stage of an attempt after `staged`: called at once with a value, or with the one value
 * an Observable stage emits. Every stage emits exactly one value (or errors), so this is `concatMap`
 * for one value, without an inner subscription when the stage has nothing to wait for.
 *
 * `stage` is called with `attempt` as its second argument: the stages are module-level functions,
 * not closures made for every attempt of every call.
 *
 * @example
 * ```ts
 * andThen(validate(attempt), keysClear, attempt); // a value, or an Observable
 * ```
 */
export function andThen<T, R, A>(
  staged: Observable<T> | T,
  stage: (value: T, attempt: A) => Observable<R> | R,
  attempt: A,
): Observable<R> | R {
  if (!isObservable(staged)) return stage(staged as T, attempt);
  return new Observable<R>((destination) => {
    staged.subscribe(operate<T>(new Step(destination, stage, attempt)));
  });
}

// The handlers of one `andThen` in flight (a class: its methods are not made per call): the
// stage's result is forwarded; it completes when the source and the stage's result both have.
class Step<T, R, A> {
  #inner = false;
  #outerDone = false;

  constructor(
    readonly destination: Subscriber<R>,
    private readonly stage: (value: T, attempt: A) => Observable<R> | R,
    private readonly attempt: A,
  ) {}

  next(value: T): void {
    const result = this.stage(value, this.attempt);
    if (!isObservable(result)) {
      this.destination.next(result);
      return;
    }
    this.#inner = true;
    result.subscribe(operate<R>(new StageResult<T, R, A>(this)));
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
class StageResult<T, R, A> {
  readonly destination: Subscriber<R>;

  constructor(private readonly step: Step<T, R, A>) {
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
