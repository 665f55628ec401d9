import {
  defer,
  endWith,
  merge,
  mergeMap,
  type Observable,
  type OperatorFunction,
  of,
  Subject,
  throwError,
} from 'rxjs';
import { mergeByPriority } from './merge-by-priority.js';

/**
 * Which ready call takes a free slot first: `model-order` (the earliest call) or
 * `longest-first` (the largest `estimateMs`, ties in model order).
 */
export type EagerPriority = 'model-order' | 'longest-first';

/** What a call learns when it starts. */
export interface EagerStart {
  /** Its dependencies that had not ended yet when it arrived, ascending. */
  readonly waitedFor: readonly number[];
}

/** One arriving call for {@link scheduleEager}. */
export interface EagerCall<T> {
  /** Position in model order: calls arrive in it, from 0. */
  readonly index: number;
  /** Earlier calls (indices, already arrived) that must end before this one starts. */
  readonly dependencies: readonly number[];
  /** Expected duration, for `longest-first`; a missing estimate counts as 0. */
  readonly estimateMs?: number | undefined;
  /** The call's work, subscribed once when it starts; it ends when this completes. */
  run(start: EagerStart): Observable<T>;
}

/** Options of {@link scheduleEager}. */
export interface ScheduleEagerOptions {
  /** Calls running at once: an integer ≥ 1. */
  readonly maxConcurrency: number;
  /** Default `'model-order'`. */
  readonly priority?: EagerPriority | undefined;
}

/**
 * Starts each arriving call as soon as it may: when it has arrived, every call it depends on
 * has ended, and one of `maxConcurrency` slots is free; among ready calls, by `priority`.
 * Work-conserving: a ready call never waits while a slot is free. A call's readiness is an
 * Observable of its dependencies' ends; the ready calls are merged under the cap by priority
 * ({@link mergeByPriority}). Emits what the calls' `run` Observables emit, completes when the
 * source has completed and every call has ended. An error (from the source or a call) errors
 * the result at once: no call starts after it and the calls running are unsubscribed from, as
 * they are when the result is unsubscribed from.
 *
 * Calls whose dependencies end at the same moment, in one synchronous step, compete for the
 * freed slots together; ends in separate tasks free their slots one after the other.
 *
 * @example
 * ```ts
 * // Call 1 waits for call 0; call 2 runs beside call 0.
 * from([
 *   { index: 0, dependencies: [], run: () => timer(30).pipe(map(() => 'a')) },
 *   { index: 1, dependencies: [0], run: () => timer(10).pipe(map(() => 'b')) },
 *   { index: 2, dependencies: [], run: () => timer(10).pipe(map(() => 'c')) },
 * ]).pipe(scheduleEager({ maxConcurrency: 2 })); // 'c' at 10, 'a' at 30, 'b' at 40
 * ```
 * @see mergeByPriority for the merge under the cap.
 */
export function scheduleEager<T>(options: ScheduleEagerOptions): OperatorFunction<EagerCall<T>, T> {
  const compare = options.priority === 'longest-first' ? longestFirst : modelOrder;
  const concurrency = options.maxConcurrency;
  return (calls) =>
    defer(() => {
      const ends = new CallEnds();
      return calls.pipe(
        mergeMap((call) => ends.whenReady(call)),
        mergeByPriority<ReadyCall<T>, T>((ready) => ready.call.run(ready), {
          concurrency,
          compare,
          onEnd: (ready) => ends.end(ready.call.index),
        }),
      );
    });
}

/** A call whose dependencies have ended. */
interface ReadyCall<T> extends EagerStart {
  readonly call: EagerCall<T>;
}

const modelOrder = <T>(a: ReadyCall<T>, b: ReadyCall<T>): number => a.call.index - b.call.index;

const longestFirst = <T>(a: ReadyCall<T>, b: ReadyCall<T>): number =>
  (b.call.estimateMs ?? 0) - (a.call.estimateMs ?? 0) || a.call.index - b.call.index;

/** Which calls have arrived and ended, and each running call's end as an Observable. */
class CallEnds {
  readonly #arrived: boolean[] = [];
  readonly #ended: boolean[] = [];
  /** Created when a later call has to wait for the call; completes when it ends. */
  readonly #endOf: (Subject<never> | undefined)[] = [];

  /** The call, once its dependencies have ended: at once, or when the last one ends. */
  whenReady<T>(call: EagerCall<T>): Observable<ReadyCall<T>> {
    const { index, dependencies } = call;
    if (!Number.isInteger(index) || index < 0 || this.#arrived[index] === true) {
      return throwError(
        () => new RangeError(`Expected a new call index (an integer ≥ 0), got ${String(index)}`),
      );
    }
    this.#arrived[index] = true;
    const pending: number[] = [];
    for (const dependency of dependencies) {
      if (this.#arrived[dependency] !== true || dependency >= index) {
        return throwError(
          () =>
            new RangeError(
              `Call ${index} depends on call ${String(dependency)}, which is not an earlier call that has arrived`,
            ),
        );
      }
      if (this.#ended[dependency] !== true) pending.push(dependency);
    }
    if (pending.length === 0) return of({ call, waitedFor: pending });
    pending.sort((a, b) => a - b);
    const ready: ReadyCall<T> = { call, waitedFor: pending };
    return merge(...pending.map((dependency) => this.#endOfCall(dependency))).pipe(endWith(ready));
  }

  /** The call ended: the calls waiting for it learn it now, in the order they arrived. */
  end(index: number): void {
    this.#ended[index] = true;
    const subject = this.#endOf[index];
    if (subject === undefined) return;
    this.#endOf[index] = undefined;
    subject.complete();
  }

  #endOfCall(index: number): Subject<never> {
    let subject = this.#endOf[index];
    if (subject === undefined) {
      subject = new Subject<never>();
      this.#endOf[index] = subject;
    }
    return subject;
  }
}
