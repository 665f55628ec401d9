import type { ToolCall } from '@toolwaves/core';
import {
  catchError,
  from,
  map,
  Observable,
  type Subscriber,
  type TeardownLogic,
  throwError,
} from 'rxjs';
import { BatchState, type BatchStateOptions } from './batch-state.js';
import { DispatchError } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';
import { EagerArrivals } from './eager-arrivals.js';
import { errorMessage } from './error-message.js';
import { fillResultSlots } from './fill-result-slots.js';
import type { ToolExecute } from './prepared-call.js';
import type { DispatcherConfig, ResolvedDispatchOptions } from './resolve-dispatcher-options.js';
import { type EagerCall, scheduleEager } from './schedule-eager.js';

/** Options of {@link runEagerBatch}. */
export interface RunEagerBatchOptions {
  readonly config: DispatcherConfig;
  /** The whole batch, or a stream of calls the model is still writing. */
  readonly calls: readonly ToolCall[] | Observable<ToolCall>;
  readonly dispatch: ResolvedDispatchOptions;
  /** Emit the call events; `false` when only the results are wanted. */
  readonly progressEvents: boolean;
  /** A turn's calls arrive one `run` at a time (for instrumentation); default a batch or stream. */
  readonly turn?: boolean | undefined;
  /** The implementation given with call `index`, if any (turns). */
  readonly executeOf?: ((index: number) => ToolExecute | undefined) | undefined;
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
  const instrument = config.instrumentation?.startBatch({
    mode: sequential ? 'sequential' : 'eager',
    source: whole !== undefined ? 'batch' : options.turn === true ? 'turn' : 'stream',
    ...(whole === undefined ? {} : { callCount: whole.length }),
    maxConcurrency: cap,
  });
  const batch = new EagerBatchState(
    {
      config,
      calls: batchCalls,
      progressEvents,
      observer: subscriber,
      instrument,
      executeOf: options.executeOf,
      streamed: whole === undefined,
      onFailure: dispatch.onFailure,
    },
    (error) => {
      batch.endInstrument(error.code === 'cancelled' ? 'cancelled' : 'failed', error);
      subscriber.error(error);
    },
  );
  if (signal?.aborted) {
    const error = cancelled(signal);
    batch.endInstrument('cancelled', error);
    subscriber.error(error);
    return undefined;
  }
  subscriber.next({
    type: 'batch-start',
    mode: sequential ? 'sequential' : 'eager',
    maxConcurrency: cap,
    callCount: whole?.length,
    plan: undefined,
    explanation: [],
  });
  if (subscriber.closed) return undefined;

  const arrivals = new EagerArrivals(batch, sequential);
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
      batch.endInstrument('failed', error);
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
      error: (error: unknown) => {
        batch.endInstrument('failed', error);
        subscriber.error(error);
      },
      complete: () => {
        if (batch.failure !== undefined) {
          subscriber.error(batch.failure);
          return;
        }
        batch.finished = true;
        batch.endInstrument('ok');
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
    batch.endInstrument('cancelled', batch.failure);
  };
}

/** A batch that reports its hard error once the calls in flight have been stopped. */
class EagerBatchState extends BatchState {
  readonly #onFailed: (error: DispatchError) => void;

  constructor(options: BatchStateOptions, onFailed: (error: DispatchError) => void) {
    super(options);
    this.#onFailed = onFailed;
  }

  override fail(error: DispatchError): void {
    const first = this.failure === undefined && !this.finished;
    super.fail(error);
    if (first) this.#onFailed(error);
  }
}

function cancelled(signal: AbortSignal): DispatchError {
  return new DispatchError({
    code: 'cancelled',
    message: 'The dispatch was cancelled',
    cause: signal.reason,
  });
}
