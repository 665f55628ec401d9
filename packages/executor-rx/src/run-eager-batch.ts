import { describeValue, type ToolCall } from '@toolwaves/core';
import { DependencyTracker, dependencies } from '@toolwaves/planner';
import {
  catchError,
  EMPTY,
  from,
  map,
  Observable,
  type Subscriber,
  type TeardownLogic,
  throwError,
} from 'rxjs';
import { BatchState } from './batch-state.js';
import { DispatchError } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';
import { errorMessage } from './error-message.js';
import { fillResultSlots } from './fill-result-slots.js';
import type { DispatcherConfig, ResolvedDispatchOptions } from './resolve-dispatcher-options.js';
import { runCall } from './run-call.js';
import { type EagerCall, type EagerStart, scheduleEager } from './schedule-eager.js';

/** Options of {@link runEagerBatch}. */
export interface RunEagerBatchOptions {
  readonly config: DispatcherConfig;
  /** The whole batch, or a stream of calls the model is still writing. */
  readonly calls: readonly ToolCall[] | Observable<ToolCall>;
  readonly dispatch: ResolvedDispatchOptions;
  /** Emit the call events; `false` when only the results are wanted. */
  readonly progressEvents: boolean;
}

/**
 * One dispatch without waves, as an Observable of events: `batch-start`, the calls' events,
 * then `batch-end` with the results in call order, or the hard error. Each call starts as soon
 * as the earlier calls it depends on have ended and a slot is free ({@link scheduleEager}):
 * for a whole batch the dependencies come from the planner's `dependencies`, for a stream from
 * a `DependencyTracker` as each call arrives, while the source is still producing. In
 * `sequential` mode a stream's calls run one by one as they arrive. Every call goes through
 * the same per-call pipeline as in waves ({@link runCall}).
 *
 * In a stream, a second call with an id already seen gets a soft error naming the id and does
 * not run.
 * A source that errors (or yields something that is not a tool call) fails the batch with
 * `source_failed`; the caller's signal fails it with `cancelled`; either way the calls in
 * flight are stopped and the source is no longer read.
 */
export function runEagerBatch(options: RunEagerBatchOptions): Observable<DispatchEvent> {
  return new Observable<DispatchEvent>((subscriber) => start(options, subscriber));
}

function start(
  options: RunEagerBatchOptions,
  subscriber: Subscriber<DispatchEvent>,
): TeardownLogic {
  const { config, calls, dispatch, progressEvents } = options;
  const { signal } = dispatch;
  if (signal?.aborted) {
    subscriber.error(cancelled(signal));
    return undefined;
  }
  const whole = Array.isArray(calls) ? (calls as readonly ToolCall[]) : undefined;
  const sequential = dispatch.mode === 'sequential';
  const cap = sequential
    ? 1
    : whole === undefined
      ? dispatch.maxConcurrency
      : Math.max(1, Math.min(dispatch.maxConcurrency, whole.length));
  // A stream's calls go to an array of the batch's own, which grows as they arrive.
  const batchCalls = whole ?? [];
  // A hard error (a call's, the source's, a cancel) ends the run once every call in flight has
  // been stopped and has emitted its `call-end`: no call starts after it, the source is left.
  const batch = new EagerBatchState(config, batchCalls, progressEvents, (error) =>
    subscriber.error(error),
  );
  subscriber.next({
    type: 'batch-start',
    mode: sequential ? 'sequential' : 'eager',
    maxConcurrency: cap,
    callCount: whole?.length,
    plan: undefined,
    explanation: [],
  });
  if (subscriber.closed) return undefined;

  const arrivals = new Arrivals(batch, sequential);
  let eagerCalls: Observable<EagerCall<DispatchEvent>>;
  if (whole === undefined) {
    eagerCalls = (calls as Observable<ToolCall>).pipe(
      map((call) => arrivals.arrive(call)),
      catchError((cause: unknown) => {
        // `arrive` raises `source_failed` itself for an element that is not a tool call.
        const error =
          cause instanceof DispatchError && cause.code === 'source_failed'
            ? cause
            : new DispatchError({
                code: 'source_failed',
                message: `The stream of tool calls failed: ${errorMessage(cause)}`,
                cause,
              });
        batch.fail(error);
        return throwError(() => batch.failure ?? error);
      }),
    );
  } else {
    let waits: number[][];
    try {
      waits = arrivals.planWhole();
    } catch (error) {
      subscriber.error(error);
      return undefined;
    }
    eagerCalls = from(whole.map((_, index) => arrivals.planned(index, waits[index]!)));
  }

  const onAbort = (): void => batch.fail(cancelled(signal!));
  signal?.addEventListener('abort', onAbort, { once: true });
  const subscription = eagerCalls
    .pipe(scheduleEager<DispatchEvent>({ maxConcurrency: cap, priority: dispatch.priority }))
    .subscribe({
      next: (event) => subscriber.next(event),
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        if (batch.failure !== undefined) {
          subscriber.error(batch.failure);
          return;
        }
        batch.finished = true;
        subscriber.next({
          type: 'batch-end',
          results: fillResultSlots(batch.calls, batch.results),
          durationMs: batch.now() - batch.startedAt,
        });
        subscriber.complete();
      },
    });
  return () => {
    signal?.removeEventListener('abort', onAbort);
    subscription.unsubscribe();
    batch.dispose();
  };
}

/** A batch that reports its hard error once the calls in flight have been stopped. */
class EagerBatchState extends BatchState {
  readonly #onFailed: (error: DispatchError) => void;

  constructor(
    config: DispatcherConfig,
    calls: readonly ToolCall[],
    progressEvents: boolean,
    onFailed: (error: DispatchError) => void,
  ) {
    super({ config, calls, progressEvents });
    this.#onFailed = onFailed;
  }

  override fail(error: DispatchError): void {
    const first = this.failure === undefined && !this.finished;
    super.fail(error);
    if (first) this.#onFailed(error);
  }
}

/** Turns the batch's calls into calls for {@link scheduleEager}: index, dependencies, work. */
class Arrivals {
  readonly #batch: BatchState;
  readonly #sequential: boolean;
  readonly #tracker = new DependencyTracker();
  /** The first call index of each id seen. */
  readonly #ids = new Map<string, number>();

  constructor(batch: BatchState, sequential: boolean) {
    this.#batch = batch;
    this.#sequential = sequential;
  }

  /** The dependencies of a whole batch, from the planner (plan nodes with latency estimates). */
  planWhole(): number[][] {
    return dependencies(this.#batch.prepared.map((prepared) => prepared.node));
  }

  /**
   * Call `index` of a whole batch, with its planned dependencies. (Ids are checked for streams
   * only, where calls arrive one by one: a whole batch runs every call, as waves do.)
   */
  planned(index: number, waits: readonly number[]): EagerCall<DispatchEvent> {
    return this.#eagerCall(index, waits, index, this.#batch.startedAt);
  }

  /** A call of a stream arrives: its slot, its dependencies (tracked now), its work. */
  arrive(call: ToolCall): EagerCall<DispatchEvent> {
    const batch = this.#batch;
    checkCall(call, batch.calls.length);
    const prepared = batch.arrive(call);
    const index = prepared.index;
    const firstIndex = this.#firstWithId(index);
    let waits: readonly number[];
    if (this.#sequential) waits = index === 0 ? [] : [index - 1];
    // A duplicate does not run, but takes its place in the order like a keyless call.
    else if (firstIndex === index) waits = this.#tracker.add(prepared.node);
    else waits = this.#tracker.add({ index, parallelizable: true });
    return this.#eagerCall(index, waits, firstIndex, batch.now());
  }

  /** The index of the first call with call `index`'s id (itself when it is the first). */
  #firstWithId(index: number): number {
    const id = this.#batch.calls[index]!.id;
    const first = this.#ids.get(id);
    if (first !== undefined) return first;
    this.#ids.set(id, index);
    return index;
  }

  #eagerCall(
    index: number,
    waits: readonly number[],
    firstIndex: number,
    arrivedAt: number,
  ): EagerCall<DispatchEvent> {
    const batch = this.#batch;
    const prepared = batch.prepared[index]!;
    return firstIndex === index
      ? new DispatchedCall(batch, index, waits, prepared.node.estimateMs, arrivedAt)
      : new DuplicateCall(batch, index, waits, firstIndex, arrivedAt);
  }
}

/** A call that runs through the per-call pipeline when {@link scheduleEager} starts it. */
class DispatchedCall implements EagerCall<DispatchEvent> {
  readonly index: number;
  readonly dependencies: readonly number[];
  readonly estimateMs: number | undefined;
  readonly #batch: BatchState;
  readonly #arrivedAt: number;

  constructor(
    batch: BatchState,
    index: number,
    dependencies: readonly number[],
    estimateMs: number | undefined,
    arrivedAt: number,
  ) {
    this.#batch = batch;
    this.index = index;
    this.dependencies = dependencies;
    this.estimateMs = estimateMs;
    this.#arrivedAt = arrivedAt;
  }

  run(start: EagerStart): Observable<DispatchEvent> {
    const batch = this.#batch;
    const arrivedAt = this.#arrivedAt;
    return runCall({
      batch,
      prepared: batch.prepared[this.index]!,
      wave: undefined,
      readyAt: arrivedAt,
      eager: { arrivedAt, waitedFor: start.waitedFor },
    });
  }
}

/** A call whose id an earlier call already has: a soft error naming the id, not run. */
class DuplicateCall implements EagerCall<DispatchEvent> {
  readonly index: number;
  readonly dependencies: readonly number[];
  readonly #batch: BatchState;
  readonly #firstIndex: number;
  readonly #arrivedAt: number;

  constructor(
    batch: BatchState,
    index: number,
    dependencies: readonly number[],
    firstIndex: number,
    arrivedAt: number,
  ) {
    this.#batch = batch;
    this.index = index;
    this.dependencies = dependencies;
    this.#firstIndex = firstIndex;
    this.#arrivedAt = arrivedAt;
  }

  run(start: EagerStart): Observable<DispatchEvent> {
    const batch = this.#batch;
    const index = this.index;
    const call = batch.calls[index]!;
    const toolName = String(call.name);
    const content = `Duplicate tool call id \`${call.id}\`: call ${this.#firstIndex} has the same id, so call ${index} (\`${toolName}\`) was not run`;
    batch.results[index] = { toolCallId: call.id, toolName, content, isError: true, durationMs: 0 };
    if (!batch.progressEvents) return EMPTY;
    const waitedMs = batch.now() - this.#arrivedAt;
    const common = { wave: undefined, index, toolCallId: call.id, toolName, attempt: 1 } as const;
    return from<DispatchEvent[]>([
      {
        type: 'call-start',
        ...common,
        input: call.input,
        fleetWaitMs: 0,
        waitedFor: start.waitedFor,
        waitedMs,
      },
      {
        type: 'call-end',
        ...common,
        outcome: 'error',
        isError: true,
        content,
        durationMs: 0,
        waitMs: waitedMs,
      },
    ]);
  }
}

/** A stream's element must look like a tool call (string `id` and `name`). */
function checkCall(call: unknown, index: number): asserts call is ToolCall {
  const candidate = call as Partial<ToolCall> | null;
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.id === 'string' &&
    typeof candidate.name === 'string'
  ) {
    return;
  }
  throw new DispatchError({
    code: 'source_failed',
    message: `Expected call ${index} of the stream to be a tool call ({ id: string, name: string, input }), got ${describeValue(call)}`,
  });
}

function cancelled(signal: AbortSignal): DispatchError {
  return new DispatchError({
    code: 'cancelled',
    message: 'The dispatch was cancelled',
    cause: signal.reason,
  });
}
