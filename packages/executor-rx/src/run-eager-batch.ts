import { describeValue, planNodeForCall, type ToolCall } from '@toolwaves/core';
import { DependencyTracker, dependencies } from '@toolwaves/planner';
import {
  catchError,
  from,
  map,
  Observable,
  type Subscriber,
  type TeardownLogic,
  throwError,
} from 'rxjs';
import { BatchRun } from './batch-run.js';
import { DispatchError } from './dispatch-error.js';
import type { CallEndEvent, CallStartEvent, DispatchEvent } from './dispatch-event.js';
import { errorMessage } from './error-message.js';
import { fillResultSlots } from './fill-result-slots.js';
import type { DispatcherConfig, ResolvedDispatchOptions } from './resolve-dispatcher-options.js';
import { runCall } from './run-call.js';
import { type EagerCall, scheduleEager } from './schedule-eager.js';

/** Options of {@link runEagerBatch}. */
export interface RunEagerBatchOptions {
  readonly config: DispatcherConfig;
  /** The whole batch, or a stream of calls the model is still writing. */
  readonly calls: readonly ToolCall[] | Observable<ToolCall>;
  readonly dispatch: ResolvedDispatchOptions;
  /** Emit the call events; `false` when only the results are wanted. */
  readonly progressEvents: boolean;
}

/** Wave number handed to the per-call pipeline; its events leave without it (no waves here). */
const NO_WAVE = -1;

/**
 * One dispatch without waves, as an Observable of events: `batch-start`, the calls' events,
 * then `batch-end` with the results in call order, or the hard error. Each call starts as soon
 * as the earlier calls it depends on have ended and a slot is free ({@link scheduleEager}):
 * for a whole batch the dependencies come from the planner's `dependencies`, for a stream from
 * a `DependencyTracker` as each call arrives, while the source is still producing. In
 * `sequential` mode a stream's calls run one by one as they arrive. Every call goes through
 * the same per-call pipeline as in waves ({@link runCall}).
 *
 * A second call with an id already seen gets a soft error naming the id and does not run.
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
  // Grows as calls arrive: slot i answers call i.
  const arrived: ToolCall[] = [];
  // A hard error (a call's, the source's, a cancel) ends the run once every call in flight has
  // been stopped and has emitted its `call-end`: no call starts after it, the source is left.
  const batch = new EagerBatchRun(config, arrived, progressEvents, (error) =>
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
        const error =
          cause instanceof DispatchError
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
      waits = arrivals.planWhole(whole);
    } catch (error) {
      subscriber.error(error);
      return undefined;
    }
    eagerCalls = from(whole.map((call, index) => arrivals.arrive(call, waits[index])));
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
          results: fillResultSlots(arrived, batch.results),
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
class EagerBatchRun extends BatchRun {
  readonly #onFailed: (error: DispatchError) => void;

  constructor(
    config: DispatcherConfig,
    calls: readonly ToolCall[],
    progressEvents: boolean,
    onFailed: (error: DispatchError) => void,
  ) {
    super(config, calls, progressEvents);
    this.#onFailed = onFailed;
  }

  override fail(error: DispatchError): void {
    const first = this.failure === undefined && !this.finished;
    super.fail(error);
    if (first) this.#onFailed(error);
  }
}

/** Turns arriving tool calls into calls for {@link scheduleEager}: index, dependencies, work. */
class Arrivals {
  readonly #batch: BatchRun;
  readonly #sequential: boolean;
  readonly #tracker = new DependencyTracker();
  /** The first call index of each id seen. */
  readonly #ids = new Map<string, number>();

  constructor(batch: BatchRun, sequential: boolean) {
    this.#batch = batch;
    this.#sequential = sequential;
  }

  /** The dependencies of a whole batch, from the planner, with the health record's estimates. */
  planWhole(calls: readonly ToolCall[]): number[][] {
    const { registry, health } = this.#batch.config;
    return dependencies(
      registry.toPlanNodes(calls, { estimateMs: (call) => health.estimateMs(String(call.name)) }),
    );
  }

  /** A call arrives: its slot, its dependencies (given, or tracked now), its work. */
  arrive(call: ToolCall, planned?: readonly number[]): EagerCall<DispatchEvent> {
    const batch = this.#batch;
    const index = batch.calls.length;
    if (planned === undefined) checkCall(call, index);
    (batch.calls as ToolCall[]).push(call);
    const arrivedAt = batch.now();
    const name = String(call.name);
    const estimateMs = batch.config.health.estimateMs(name);
    const firstIndex = this.#ids.get(call.id);
    if (firstIndex === undefined) this.#ids.set(call.id, index);
    let waits = planned;
    if (waits === undefined) {
      if (this.#sequential) waits = index === 0 ? [] : [index - 1];
      else {
        // A duplicate does not run, but takes its place in the order like a keyless call.
        const node =
          firstIndex === undefined
            ? planNodeForCall({
                index,
                tool: batch.config.registry.get(name),
                input: call.input,
                estimateMs,
              })
            : { index, parallelizable: true };
        waits = this.#tracker.add(node);
      }
    }
    return {
      index,
      dependencies: waits,
      estimateMs,
      run: ({ waitedFor }) =>
        firstIndex === undefined
          ? eagerCallEvents(batch, index, waitedFor, arrivedAt)
          : duplicateEvents(batch, index, firstIndex, waitedFor, arrivedAt),
    };
  }
}

/**
 * The per-call pipeline of one call, its events marked as eager ones (no wave; which calls it
 * waited for and how long since it arrived).
 */
function eagerCallEvents(
  batch: BatchRun,
  index: number,
  waitedFor: readonly number[],
  arrivedAt: number,
): Observable<DispatchEvent> {
  if (!batch.progressEvents) return runCall(batch, index, NO_WAVE);
  return new Observable<DispatchEvent>((subscriber) => {
    let firstStartAt = arrivedAt;
    return runCall(batch, index, NO_WAVE).subscribe({
      next: (event) => {
        if (event.type === 'call-start') {
          const startedAt = batch.now();
          if (event.attempt === 1) firstStartAt = startedAt;
          const start: CallStartEvent = {
            ...event,
            wave: undefined,
            waitedFor: event.attempt === 1 ? waitedFor : [],
            waitedMs: startedAt - arrivedAt,
          };
          subscriber.next(start);
        } else if (event.type === 'call-end') {
          const end: CallEndEvent = {
            ...event,
            wave: undefined,
            waitMs: event.attempt === 1 ? firstStartAt - arrivedAt : event.waitMs,
          };
          subscriber.next(end);
        } else subscriber.next(event);
      },
      complete: () => subscriber.complete(),
    });
  });
}

/** A call whose id an earlier call already has: a soft error naming the id, not run. */
function duplicateEvents(
  batch: BatchRun,
  index: number,
  firstIndex: number,
  waitedFor: readonly number[],
  arrivedAt: number,
): Observable<DispatchEvent> {
  const call = batch.calls[index]!;
  const toolName = String(call.name);
  const content = `Duplicate tool call id \`${call.id}\`: call ${firstIndex} has the same id, so call ${index} (\`${toolName}\`) was not run`;
  batch.results[index] = { toolCallId: call.id, toolName, content, isError: true, durationMs: 0 };
  if (!batch.progressEvents) return from([]);
  const waitedMs = batch.now() - arrivedAt;
  const common = { wave: undefined, index, toolCallId: call.id, toolName, attempt: 1 } as const;
  return from<DispatchEvent[]>([
    { type: 'call-start', ...common, input: call.input, waitedFor, waitedMs },
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
