import type { BatchEndInfo, BatchInstrument, ToolCall, ToolResult } from '@toolwaves/core';
import { followsByEdge } from '@toolwaves/planner';
import { Observable, Subject, type Subscriber, type TeardownLogic, tap } from 'rxjs';
import { BatchClock } from './batch-clock.js';
import type { BatchSchedule, BatchStop, ScheduledBatch } from './call-batch.js';
import { DispatchError } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';
import { FailureGate } from './failure-policy.js';
import { operate } from './operate.js';
import { PreparedCalls, type ToolExecute } from './prepared-call.js';
import type { DispatcherConfig, ResolvedDispatchOptions } from './resolve-dispatcher-options.js';
import { scheduleReadyCalls } from './schedule-ready-calls.js';
import { scheduleWaves } from './schedule-waves.js';
import { captureSubmitterContext, type SubmitterContext } from './submitter-context.js';

/** Options of {@link runBatch}. */
export interface RunBatchOptions {
  readonly config: DispatcherConfig;
  /** The whole batch, or a stream of calls the model is still writing. */
  readonly calls: readonly ToolCall[] | Observable<ToolCall>;
  readonly dispatch: ResolvedDispatchOptions;
  /** A turn's calls arrive one `run` at a time (for instrumentation). */
  readonly turn?: boolean | undefined;
  /** The implementation given with call `index`, if any (turns). */
  readonly executeOf?: ((index: number) => ToolExecute | undefined) | undefined;
  /** A whole batch's calls, checked (`checkBatch`): per call, the earlier call with its id. */
  readonly repeats?: readonly (number | undefined)[] | undefined;
  /** Only the results are read (`dispatch` and `dispatchStream` without `onEvent`, turns): the
   * `call-start` events nobody sees are not made. Default: every event is seen (`run`). */
  readonly resultsOnly?: boolean | undefined;
}

// One dispatch in any mode, as an Observable of events (each to `onEvent` first): `batch-start`,
// the calls' events, `batch-end` with the results collected by index, or the hard error.
export function runBatch(options: RunBatchOptions): Observable<DispatchEvent> {
  // Captured where the batch was submitted (`dispatch`, `run`), not where it is subscribed.
  const submitter = captureSubmitterContext();
  const events = new Observable<DispatchEvent>((subscriber) =>
    new BatchRun(options, subscriber, submitter).start(),
  );
  const { onEvent } = options.dispatch;
  return onEvent === undefined ? events : events.pipe(tap(onEvent));
}

/** The state of one run of {@link runBatch}: what its calls see of it ({@link CallBatch}). */
class BatchRun implements ScheduledBatch {
  readonly config: DispatcherConfig;
  readonly clock: BatchClock;
  readonly calls: ToolCall[];
  readonly startedAt: number;
  readonly instrument: BatchInstrument | undefined;
  readonly gate: FailureGate | undefined;
  readonly startsSeen: boolean;
  readonly stops = new Subject<BatchStop>();
  readonly mayStop: boolean;
  failure: DispatchError | undefined;
  readonly dispatch: ResolvedDispatchOptions;
  readonly #subscriber: Subscriber<DispatchEvent>;
  readonly prepared: PreparedCalls;
  /** A stream's calls: per call, the earlier call with the same id (set as they arrive). */
  readonly repeats: (number | undefined)[] = [];
  readonly #whole: readonly ToolCall[] | undefined;
  readonly #results: (ToolResult | undefined)[] = [];
  /** What the schedule made of the batch, or why it could not (an invalid plan). */
  readonly #schedule: BatchSchedule | { readonly refused: unknown };
  #finished = false;
  #instrument: BatchInstrument | undefined;

  constructor(
    options: RunBatchOptions,
    subscriber: Subscriber<DispatchEvent>,
    readonly submitter: SubmitterContext,
  ) {
    const { config, calls, dispatch } = options;
    this.dispatch = dispatch;
    this.startsSeen = options.resultsOnly !== true || dispatch.onEvent !== undefined;
    this.#subscriber = subscriber;
    this.config = config;
    this.#whole = Array.isArray(calls) ? (calls as readonly ToolCall[]) : undefined;
    this.calls = this.#whole === undefined ? [] : [...this.#whole];
    // What can stop a batch (`fail`, `stop`): see `CallBatch.mayStop`.
    this.mayStop =
      dispatch.signal !== undefined ||
      this.#whole === undefined ||
      config.preHooks.length > 0 ||
      config.recovery !== undefined;
    this.startedAt = config.scheduler.now();
    const { health, registry } = config;
    const { executeOf } = options;
    this.prepared = new PreparedCalls({
      registry,
      calls: this.calls,
      health,
      executeOf,
      // Only a coordinator reads what an unsafe call holds: without one, its declarations stay unread.
      fleetExclusiveForUnsafe: config.coordinator === undefined || config.fleetExclusiveForUnsafe,
      repeats: options.repeats ?? this.repeats,
      limits: config.limits,
      modelOrdering: dispatch.modelOrdering,
    });
    const { mode } = dispatch;
    const instrumentation = config.instrumentation;
    this.instrument = submitter(() =>
      instrumentation?.startBatch({
        mode: this.#whole === undefined && mode === 'parallel' ? 'eager' : mode,
        source: this.#whole !== undefined ? 'batch' : options.turn === true ? 'turn' : 'stream',
        ...(dispatch.mode === 'parallel' && this.#whole !== undefined
          ? { planner: config.planner.name }
          : {}),
        ...(this.#whole === undefined ? {} : { callCount: this.#whole.length }),
        maxConcurrency: this.cap,
      }),
    );
    this.#instrument = this.instrument;
    // Quiet: nothing but the dispatcher's code runs between an answer and the next call's start.
    this.clock = new BatchClock({
      scheduler: config.scheduler,
      quiet:
        !this.startsSeen &&
        config.postHooks.length === 0 &&
        config.recovery === undefined &&
        this.instrument === undefined,
    });
    // The schedule (planned now: its events run once subscribed), and the failure policy built
    // from the dependencies it returned.
    const whole = this.#whole !== undefined;
    try {
      this.#schedule =
        whole && dispatch.mode !== 'eager'
          ? scheduleWaves(this)
          : scheduleReadyCalls(this, whole ? undefined : (calls as Observable<ToolCall>));
    } catch (refused) {
      this.#schedule = { refused };
    }
    const schedule = this.#schedule;
    this.gate =
      dispatch.onFailure === 'continue' || 'refused' in schedule
        ? undefined
        : new FailureGate({
            policy: dispatch.onFailure,
            calls: this.calls,
            dependenciesOf: schedule.dependenciesOf,
            edgeOf: (index, earlier) =>
              followsByEdge(this.prepared.node(earlier), this.prepared.node(index)),
          });
  }

  start(): TeardownLogic {
    const { signal } = this.dispatch;
    if (signal?.aborted) {
      this.#end('cancelled', cancelled(signal));
      return undefined;
    }
    const schedule = this.#schedule;
    if ('refused' in schedule) {
      this.#end('failed', schedule.refused);
      return undefined;
    }
    const onAbort = (): void => this.stop(cancelled(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    // Made and tied to the run before it is subscribed: unsubscribing from the run inside a
    // synchronous stage (a pre hook) closes the calls at once.
    const calls = operate<DispatchEvent>({
      destination: this.#subscriber,
      next: (event) => this.#subscriber.next(this.#collect(event)),
      error: (error: unknown) => this.#end(outcomeOf(error), error),
      // The calls' events are over: `batch-end`, or the batch's hard error.
      complete: () => {
        const failure = this.failure;
        if (failure !== undefined) {
          this.#end(outcomeOf(failure), failure);
          return;
        }
        this.#subscriber.next(this.#batchEnd());
        this.#subscriber.complete();
      },
      finalize: () => {
        if (this.#finished || this.failure !== undefined) return;
        this.failure = new DispatchError({
          code: 'cancelled',
          message: 'The dispatch was unsubscribed from before it ended',
        });
      },
    });
    // `batch-start`, then the calls' events straight to `calls` (not through a `concat`: one
    // subscriber less that each call's events pass).
    calls.next(schedule.start);
    if (!calls.closed) schedule.events.subscribe(calls);
    return () => {
      signal?.removeEventListener('abort', onAbort);
      this.#endInstrument('cancelled', this.failure);
    };
  }

  get hold(): BatchSchedule['hold'] {
    const schedule = this.#schedule;
    return 'refused' in schedule ? undefined : schedule.hold;
  }

  get cap(): number {
    const { mode, maxConcurrency } = this.dispatch;
    const whole = this.#whole;
    if (whole === undefined) return mode === 'sequential' ? 1 : maxConcurrency;
    return Math.max(1, Math.min(maxConcurrency, whole.length));
  }

  fail(error: DispatchError): void {
    if (this.failure !== undefined || this.#finished) return;
    this.failure = error;
    this.stops.next({ outcome: error.code === 'cancelled' ? 'cancelled' : 'aborted', error });
  }

  stop(error: DispatchError): void {
    this.fail(error);
    this.#end(outcomeOf(error), this.failure);
  }

  #end(outcome: BatchEndInfo['outcome'], error: unknown): void {
    if (this.#subscriber.closed) return;
    this.#endInstrument(outcome, error);
    this.#subscriber.error(error);
  }

  /** A final event's result goes to its slot, and to the failure policy; the event goes on. */
  #collect(event: DispatchEvent): DispatchEvent {
    if ((event.type === 'call-skipped' || event.type === 'call-end') && event.result) {
      this.#results[event.index] = event.result;
      this.gate?.answered(event.index, event.result);
    }
    return event;
  }

  #batchEnd(): DispatchEvent {
    this.#finished = true;
    this.#endInstrument('ok', undefined);
    return {
      type: 'batch-end',
      results: fillResultSlots(this.calls, this.#results),
      durationMs: this.config.scheduler.now() - this.startedAt,
    };
  }

  #endInstrument(outcome: BatchEndInfo['outcome'], error: unknown): void {
    const instrument = this.#instrument;
    if (instrument === undefined) return;
    this.#instrument = undefined;
    const schedule = this.#schedule;
    const waves = 'refused' in schedule ? undefined : schedule.waveCount;
    instrument.end({
      outcome,
      callCount: this.calls.length,
      ...(waves === undefined ? {} : { waves }),
      ...(error === undefined ? {} : { error }),
    });
  }
}

function outcomeOf(error: unknown): BatchEndInfo['outcome'] {
  return error instanceof DispatchError && error.code === 'cancelled' ? 'cancelled' : 'failed';
}

function cancelled(signal: AbortSignal): DispatchError {
  return new DispatchError({
    code: 'cancelled',
    message: 'The dispatch was cancelled',
    cause: signal.reason,
  });
}

/** The batch's results in call order, with every empty slot. */
export function fillResultSlots(
  calls: readonly ToolCall[],
  slots: readonly (ToolResult | undefined)[],
): ToolResult[] {
  const results = new Array<ToolResult>(calls.length);
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!;
    results[i] = slots[i] ?? {
      toolCallId: call.id,
      toolName: String(call.name),
      content: `dispatch produced no result for call \`${call.id}\` (\`${String(call.name)}\`)`,
      isError: true,
      durationMs: 0,
    };
  }
  return results;
}
