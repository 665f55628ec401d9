import {
  type EagerPriority,
  EagerQueue,
  LimitedReadyQueue,
  type LimitWeights,
  type NamedLimits,
} from '@toolwaves/planner';
import { Observable, type OperatorFunction, type Subscriber } from 'rxjs';
import { operate } from './operate.js';

/** One arriving call for {@link scheduleEager}. */
export interface EagerCall<T> {
  /** Position in model order: calls arrive in it, from 0. */
  readonly index: number;
  /** Earlier calls (indices, already arrived) that must end before this one starts. */
  readonly dependencies: readonly number[];
  /** Expected duration, for `longest-first`; a missing estimate counts as 0. */
  readonly estimateMs?: number | undefined;
  /** How much of each of the schedule's named `limits` it takes while it runs; none by default. */
  readonly limits?: LimitWeights | undefined;
  /** The call's work, subscribed once when it starts (told its dependencies that had not ended
   * when it arrived, ascending, and the named limits it waited for); it ends when this completes. */
  run(waitedFor: readonly number[], limitWaits?: readonly string[]): Observable<T>;
}

/** Options of {@link scheduleEager}. */
export interface ScheduleEagerOptions {
  /** Calls running at once: an integer ≥ 1. */
  readonly maxConcurrency: number;
  /** Which ready call takes a free slot first. */
  readonly priority?: EagerPriority | undefined;
  /**
   * Named limits the calls count against (possibly shared with other schedules): a ready call
   * starts only when its weights fit too, and one that does not fit holds back no other call.
   */
  readonly limits?: NamedLimits | undefined;
}

/** Starts each arriving call as soon as its dependencies have ended and a slot is free. */
export function scheduleEager<T>(options: ScheduleEagerOptions): OperatorFunction<EagerCall<T>, T> {
  const cap = options.maxConcurrency;
  return (calls) =>
    new Observable<T>((subscriber) => {
      const pool = options.limits;
      const queue =
        pool === undefined
          ? new EagerQueue({ priority: options.priority })
          : new LimitedReadyQueue({ priority: options.priority, limits: pool });
      // Arrived calls not started yet, by index, with what they waited for.
      const waiting: (EagerCall<T> | undefined)[] = [];
      const waitedFor: (readonly number[])[] = [];
      const arrived: boolean[] = [];
      let running = 0;
      let sourceDone = false;
      let subscribing = true; // inside the source's subscription: arrivals compete together after
      let pumping = false;
      let again = false;
      // Fills the free slots from the queue; re-entered (a call ending at once) it loops instead.
      const pump = (): void => {
        if (pumping) {
          again = true;
          return;
        }
        pumping = true;
        do {
          again = false;
          while (running < cap && queue.readyCount > 0 && !subscriber.closed) {
            const next = queue.take();
            if (next === undefined) break; // the ready calls wait for limits
            start(next);
          }
        } while (again);
        pumping = false;
        if (sourceDone && running === 0 && queue.readyCount === 0) subscriber.complete();
      };
      const start = (index: number): void => {
        const call = waiting[index]!;
        waiting[index] = undefined;
        running += 1;
        holding?.add(index);
        // Tied to the result before it is subscribed: an unsubscribe reaches a synchronous start.
        const limitWaits =
          queue instanceof LimitedReadyQueue ? queue.limitWaitsOf(index) : undefined;
        call
          .run(waitedFor[index]!, limitWaits)
          .subscribe(operate<T>(new Slot(subscriber, index, ended)));
      };
      // A call completed: its slot is free, its dependents may become ready.
      const ended = (index: number): void => {
        running -= 1;
        holding?.delete(index);
        queue.end(index);
        pump();
      };
      const arrive = (call: EagerCall<T>): void => {
        const { index } = call;
        const wrong = arrivalError(call, arrived);
        if (wrong !== undefined) {
          subscriber.error(new RangeError(wrong));
          return;
        }
        arrived[index] = true;
        waitedFor[index] = queue.add(call); // its index, dependencies, estimate and limits
        waiting[index] = call;
        if (!subscribing) pump();
      };
      // Another schedule sharing the limits gave some back: a call of this one may fit now.
      // Calls started and not ended hold their weights: a schedule stopped early (cancelled, a
      // hard error, unsubscribed) gives them back, or the dispatcher's limits would leak.
      const holding = pool === undefined ? undefined : new Set<number>();
      if (pool !== undefined) {
        subscriber.add(pool.onGive(pump));
        subscriber.add(() => {
          for (const index of holding!) queue.end(index);
          holding!.clear();
        });
      }
      subscriber.add(
        calls.subscribe({
          next: arrive,
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            sourceDone = true;
            pump();
          },
        }),
      );
      subscribing = false;
      pump();
    });
}

/** A running call's handlers: its events go on, its error is the schedule's, its end frees the
 * slot (a class: nothing is made per call but this object). */
class Slot<T> {
  constructor(
    readonly destination: Subscriber<T>,
    readonly index: number,
    readonly ended: (index: number) => void,
  ) {}

  next(value: T): void {
    this.destination.next(value);
  }

  error(error: unknown): void {
    this.destination.error(error);
  }

  complete(): void {
    this.ended(this.index);
  }
}

/** What is wrong with an arriving call's index or dependencies, if anything. */
function arrivalError(call: EagerCall<unknown>, arrived: readonly boolean[]): string | undefined {
  const { index, dependencies } = call;
  if (!Number.isInteger(index) || index < 0 || arrived[index] === true) {
    return `Expected a new call index (an integer ≥ 0), got ${String(index)}`;
  }
  let wrong: number | undefined;
  for (const d of dependencies) {
    if (arrived[d] !== true || d >= index) {
      wrong = d;
      break;
    }
  }
  return wrong === undefined
    ? undefined
    : `Call ${index} depends on call ${String(wrong)}, which is not an earlier call that has arrived`;
}
