import { isObservable, Observable, type Subscription, type Unsubscribable } from 'rxjs';
import { detached } from '../operate.js';

/** What a {@link StageWork} hands its one value (or its error) to, then completes. */
export interface StageObserver<T> {
  next(value: T): void;
  error(error: unknown): void;
  complete(): void;
}

/**
 * A stage's work that its {@link StageRun} starts itself, as the work's observer: nothing is made
 * or subscribed for it but the work (no Observable, no observer, no teardown list). The tool's run
 * is one (`executeTool`): one per attempt of every call. Started once; `unsubscribe` stops it,
 * before or after it started (then it hands nothing on).
 */
export abstract class StageWork<T> implements Unsubscribable {
  abstract start(observer: StageObserver<T>): void;
  abstract unsubscribe(): void;
}

/**
 * `work` as a cold Observable, where a stage composes it with others (a race with the timeout,
 * the grant before it): subscribed once, it starts the work, which the subscriber's unsubscription
 * stops (tied before it starts: a stop while it starts reaches it).
 */
export function stageWorkObservable<T>(work: StageWork<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    subscriber.add(work);
    work.start(subscriber);
  });
}

/**
 * One stage of an attempt: what the stage before it handed on (the first stage gets
 * `undefined`) and the attempt, to the value it hands on — at once, or as an Observable that
 * emits exactly that one value (or errors), or as a {@link StageWork} that hands it on.
 */
export type Stage<A> = (staged: never, attempt: A) => unknown;

/** Who hears how a {@link StageRun} ended. */
export interface StagesEnd<A, R> {
  /** The last stage handed on `value`. */
  concluded(attempt: A, value: R): void;
  /** A stage's Observable errored (the batch's hard error). */
  failed(attempt: A, error: unknown): void;
}

/**
 * The stages of one attempt, one after another: `concatMap` for values that come one at a time,
 * without an Observable per stage. A stage with nothing to wait for hands its value to the next
 * at once; one that waits (a hook, a grant, the tool) is subscribed through one observer that
 * this run unsubscribes when it is stopped, so a stop while it waits closes it, and a stop
 * during a synchronous stage (a pre hook that cancels the dispatch) means the next stage never
 * begins (it also checks its `destination`, the call's subscriber, before each stage).
 *
 * Made, then kept by its owner as the attempt's work, then started: a stop that comes while the
 * first stages run synchronously finds it. Its owner must stop it when the call is stopped or
 * unsubscribed from (the call's attempts do: they are stopped with the call's subscriber).
 *
 * @example
 * ```ts
 * const run = new StageRun([validate, preHooks, keysClear, grantedRun, afterAnswer], attempt, destination, calls);
 * this.work = run;
 * run.start();
 * ```
 */
export class StageRun<A, R> implements Unsubscribable, StageObserver<unknown> {
  /** The next stage to run. */
  #position = 0;
  /** The observer (or the work) of the stage it waits for, if any. */
  #waiting: Subscription | StageWork<unknown> | undefined;
  #stopped = false;

  constructor(
    private readonly stages: readonly Stage<A>[],
    private readonly attempt: A,
    /** The call's subscriber: closed, the stages stop. */
    readonly destination: Subscription,
    private readonly end: StagesEnd<A, R>,
  ) {}

  /** Runs the stages from the first. */
  start(): void {
    this.#from(undefined);
  }

  /** The stage it waited for handed on `value`: that stage is done, the next ones run. */
  next(value: unknown): void {
    this.#waiting?.unsubscribe();
    this.#waiting = undefined;
    this.#from(value);
  }

  error(error: unknown): void {
    this.#waiting = undefined;
    this.end.failed(this.attempt, error);
  }

  /** A stage's work completed after handing its value on: nothing to do (it was unsubscribed). */
  complete(): void {}

  /** Stops it: the stage it waits for is unsubscribed, and no further stage begins. */
  unsubscribe(): void {
    this.#stopped = true;
    this.#waiting?.unsubscribe();
    this.#waiting = undefined;
  }

  #from(staged: unknown): void {
    const { stages, attempt, destination } = this;
    let value = staged;
    while (this.#position < stages.length) {
      if (this.#stopped || destination.closed) return;
      const stage = stages[this.#position] as (staged: unknown, attempt: A) => unknown;
      this.#position += 1;
      const result = stage(value, attempt);
      if (result instanceof StageWork) {
        // Kept before it starts, as an observer would be: a stop while it starts reaches it.
        this.#waiting = result;
        try {
          result.start(this);
        } catch (error) {
          // What subscribing to it as an Observable would do: the error of the stage it waits
          // for (one that came after it handed its value on reaches nobody).
          if (this.#waiting === result) this.error(error);
        }
        return;
      }
      if (isObservable(result)) {
        // Kept before it is subscribed: a stop reaches a stage that answers at once. Tied to
        // nothing: the call's attempts, which its stop reaches, stop this run and so the stage.
        const observer = detached<unknown>(this);
        this.#waiting = observer;
        result.subscribe(observer);
        return;
      }
      value = result;
    }
    if (this.#stopped || destination.closed) return;
    this.end.concluded(attempt, value as R);
  }
}
