import type { EagerPriority } from '@toolwaves/planner';
import { defer, merge, Observable, type OperatorFunction, Subject, type Subscriber } from 'rxjs';
import { mergeByPriority } from './merge-by-priority.js';

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
  /**
   * Which ready call takes a free slot first: `'model-order'` (the default: the earliest call)
   * or `'longest-first'` (the largest `estimateMs`, ties in model order).
   */
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
 * Calls that become ready in one synchronous step (a whole batch emitted on subscription, or
 * the calls one end releases) compete for the free slots together, by priority; ends and
 * arrivals in separate tasks are taken one after the other, in the order they happen.
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
        awaitDependencies(ends),
        mergeByPriority<ReadyCall<T>, T>(runReady, {
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

const runReady = <T>(ready: ReadyCall<T>): Observable<T> => ready.call.run(ready);

const modelOrder = <T>(a: ReadyCall<T>, b: ReadyCall<T>): number => a.call.index - b.call.index;

const longestFirst = <T>(a: ReadyCall<T>, b: ReadyCall<T>): number =>
  (b.call.estimateMs ?? 0) - (a.call.estimateMs ?? 0) || a.call.index - b.call.index;

/**
 * Each arriving call, once its dependencies have ended: at once when they already have,
 * else when the Observable of their ends completes. Completes when the source has and no call
 * is still waiting; a malformed call errors.
 */
function awaitDependencies<T>(ends: CallEnds): OperatorFunction<EagerCall<T>, ReadyCall<T>> {
  return (calls) =>
    new Observable<ReadyCall<T>>((subscriber) => {
      const gate = new DependencyGate(subscriber, ends);
      subscriber.add(calls.subscribe(gate));
    });
}

/** The state of {@link awaitDependencies}: how many arrived calls still wait. */
class DependencyGate<T> {
  readonly #subscriber: Subscriber<ReadyCall<T>>;
  readonly #ends: CallEnds;
  #waiting = 0;
  #sourceDone = false;

  constructor(subscriber: Subscriber<ReadyCall<T>>, ends: CallEnds) {
    this.#subscriber = subscriber;
    this.#ends = ends;
  }

  next(call: EagerCall<T>): void {
    let pending: readonly number[];
    try {
      pending = this.#ends.arrive(call);
    } catch (error) {
      this.#subscriber.error(error);
      return;
    }
    const ready: ReadyCall<T> = { call, waitedFor: pending };
    if (pending.length === 0) {
      this.#subscriber.next(ready);
      return;
    }
    this.#waiting += 1;
    this.#subscriber.add(
      this.#ends.endOf(pending).subscribe({ complete: () => this.ready(ready) }),
    );
  }

  error(error: unknown): void {
    this.#subscriber.error(error);
  }

  complete(): void {
    this.#sourceDone = true;
    if (this.#waiting === 0) this.#subscriber.complete();
  }

  ready(ready: ReadyCall<T>): void {
    this.#waiting -= 1;
    this.#subscriber.next(ready);
    if (this.#sourceDone && this.#waiting === 0) this.#subscriber.complete();
  }
}

/** No calls (shared: never written to). */
const NONE: number[] = [];

/** Which calls have arrived and ended, and each running call's end as an Observable. */
class CallEnds {
  readonly #arrived: boolean[] = [];
  readonly #ended: boolean[] = [];
  /** Created when a later call has to wait for the call; completes when it ends. */
  readonly #endOf: (Subject<never> | undefined)[] = [];

  /**
   * A call arrives: its dependencies that have not ended yet, ascending.
   *
   * @throws RangeError for an index already seen, or a dependency that is not an earlier call
   *   that has arrived.
   */
  arrive(call: EagerCall<unknown>): readonly number[] {
    const { index, dependencies } = call;
    if (!Number.isInteger(index) || index < 0 || this.#arrived[index] === true) {
      throw new RangeError(`Expected a new call index (an integer ≥ 0), got ${String(index)}`);
    }
    let pending: number[] | undefined;
    for (const dependency of dependencies) {
      if (this.#arrived[dependency] !== true || dependency >= index) {
        throw new RangeError(
          `Call ${index} depends on call ${String(dependency)}, which is not an earlier call that has arrived`,
        );
      }
      if (this.#ended[dependency] === true) continue;
      if (pending === undefined) pending = [dependency];
      else pending.push(dependency);
    }
    this.#arrived[index] = true;
    if (pending === undefined) return NONE;
    return pending.length > 1 ? pending.sort((a, b) => a - b) : pending;
  }

  /** Completes when every one of these calls has ended (all are running or waiting). */
  endOf(calls: readonly number[]): Observable<never> {
    return calls.length === 1
      ? this.#endOfCall(calls[0]!)
      : merge(...calls.map((c) => this.#endOfCall(c)));
  }

  /** The call ended: the calls waiting for it learn it now, in the order they arrived. */
  end(index: number): void {
    this.#ended[index] = true;
    const subject = this.#endOf[index];
    if (subject === undefined) return;
    this.#endOf[index] = undefined;
    subject.complete();
  }

  #endOfCall(index: number): Observable<never> {
    let subject = this.#endOf[index];
    if (subject === undefined) {
      subject = new Subject<never>();
      this.#endOf[index] = subject;
    }
    return subject;
  }
}
