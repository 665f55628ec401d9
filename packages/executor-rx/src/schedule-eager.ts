import { type EagerPriority, EagerQueue } from '@toolwaves/planner';
import { Observable, type OperatorFunction, Subscriber } from 'rxjs';

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
  /** Which ready call takes a free slot first. */
  readonly priority?: EagerPriority | undefined;
}

/** Starts each arriving call as soon as it may. */
export function scheduleEager<T>(options: ScheduleEagerOptions): OperatorFunction<EagerCall<T>, T> {
  return (calls) =>
    new Observable<T>((subscriber) => {
      const scheduler = new ReadyCalls<T>(subscriber, options);
      subscriber.add(calls.subscribe(scheduler));
      scheduler.subscribed();
    });
}

/** The state of one {@link scheduleEager} subscription. */
class ReadyCalls<T> {
  readonly #subscriber: Subscriber<T>;
  readonly #cap: number;
  readonly #queue: EagerQueue;
  /** Arrived calls not started yet, by index, with what they waited for. */
  readonly #waiting: ({ call: EagerCall<T>; waitedFor: readonly number[] } | undefined)[] = [];
  readonly #arrived: boolean[] = [];
  #running = 0;
  #sourceDone = false;
  /** Still inside the source's subscription: arrivals wait to compete together. */
  #subscribing = true;
  #pumping = false;
  #again = false;

  constructor(subscriber: Subscriber<T>, options: ScheduleEagerOptions) {
    this.#subscriber = subscriber;
    this.#cap = options.maxConcurrency;
    this.#queue = new EagerQueue({ priority: options.priority });
  }

  next(call: EagerCall<T>): void {
    const { index, dependencies } = call;
    if (!Number.isInteger(index) || index < 0 || this.#arrived[index] === true) {
      this.#subscriber.error(
        new RangeError(`Expected a new call index (an integer ≥ 0), got ${String(index)}`),
      );
      return;
    }
    for (const dependency of dependencies) {
      if (this.#arrived[dependency] !== true || dependency >= index) {
        this.#subscriber.error(
          new RangeError(
            `Call ${index} depends on call ${String(dependency)}, which is not an earlier call that has arrived`,
          ),
        );
        return;
      }
    }
    this.#arrived[index] = true;
    const waitedFor = this.#queue.add({ index, dependencies, estimateMs: call.estimateMs });
    this.#waiting[index] = { call, waitedFor };
    if (!this.#subscribing) this.#pump();
  }

  error(error: unknown): void {
    this.#subscriber.error(error);
  }

  complete(): void {
    this.#sourceDone = true;
    this.#pump();
  }

  /** The source's subscription returned: what arrived meanwhile competes now. */
  subscribed(): void {
    this.#subscribing = false;
    this.#pump();
  }

  /** Fills the free slots from the queue; re-entered (a call ending at once) it loops instead. */
  #pump(): void {
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    const subscriber = this.#subscriber;
    const queue = this.#queue;
    do {
      this.#again = false;
      while (this.#running < this.#cap && queue.readyCount > 0 && !subscriber.closed) {
        this.#start(queue.take()!);
      }
    } while (this.#again);
    this.#pumping = false;
    if (this.#sourceDone && this.#running === 0 && queue.readyCount === 0) {
      subscriber.complete();
    }
  }

  /** Call `index` has ended: its slot is free, the calls waiting for it alone are ready. */
  ended(index: number): void {
    this.#running -= 1;
    this.#queue.end(index);
    this.#pump();
  }

  /** Where the running calls' values and errors go. */
  get subscriber(): Subscriber<T> {
    return this.#subscriber;
  }

  #start(index: number): void {
    const { call, waitedFor } = this.#waiting[index]!;
    this.#waiting[index] = undefined;
    this.#running += 1;
    const subscriber = this.#subscriber;
    // Tied to the result before it is subscribed, so unsubscribing reaches a call even from
    // inside its own synchronous start.
    const running = new RunningCall(this, index);
    const inner = new Subscriber<T>(running);
    running.inner = inner;
    subscriber.add(inner);
    call.run({ waitedFor }).subscribe(inner);
  }
}

/** A running call's observer (a class: nothing is made per call but the instance). */
class RunningCall<T> {
  readonly #calls: ReadyCalls<T>;
  readonly #index: number;
  /** The call's own subscriber, to be dropped from the result's when it ends. */
  inner: Subscriber<T> | undefined;

  constructor(calls: ReadyCalls<T>, index: number) {
    this.#calls = calls;
    this.#index = index;
  }

  next(value: T): void {
    this.#calls.subscriber.next(value);
  }

  error(error: unknown): void {
    this.#calls.subscriber.error(error);
  }

  complete(): void {
    if (this.inner !== undefined) this.#calls.subscriber.remove(this.inner);
    this.#calls.ended(this.#index);
  }
}
