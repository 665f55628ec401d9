import type { ToolCall } from '@toolwaves/core';
import type { CallExplanation } from '@toolwaves/planner';
import {
  concat,
  concatMap,
  defer,
  from,
  Observable,
  of,
  type Subscriber,
  type TeardownLogic,
  throwError,
} from 'rxjs';
import { BatchState } from './batch-state.js';
import { DispatchError } from './dispatch-error.js';
import type { BatchStartEvent, DispatchEvent } from './dispatch-event.js';
import { fillResultSlots } from './fill-result-slots.js';
import { planBatch } from './plan-batch.js';
import type { DispatcherConfig, ResolvedDispatchOptions } from './resolve-dispatcher-options.js';
import { runWave } from './run-wave.js';

/** Options of {@link runBatch}. */
export interface RunBatchOptions {
  readonly config: DispatcherConfig;
  readonly calls: readonly ToolCall[];
  readonly dispatch: ResolvedDispatchOptions;
  /** Emit the wave and call events; `false` when only the results are wanted. Default `true`. */
  readonly progressEvents?: boolean;
}

/**
 * One dispatch as an Observable of events: plan once, then `concatMap` over the waves, then
 * `batch-end` with the results in call order, or the hard error. The caller's signal fails the
 * batch with `cancelled` at once (the calls in flight get their `call-end`s and their tools'
 * signal aborts); unsubscribing also aborts the tools' signal.
 */
export function runBatch(options: RunBatchOptions): Observable<DispatchEvent> {
  return new Observable<DispatchEvent>((subscriber) => start(options, subscriber));
}

function start(options: RunBatchOptions, subscriber: Subscriber<DispatchEvent>): TeardownLogic {
  const { config, calls, dispatch } = options;
  const { signal, mode } = dispatch;
  const cap = Math.max(1, Math.min(dispatch.maxConcurrency, calls.length));
  const instrument = config.instrumentation?.startBatch({
    mode,
    source: 'batch',
    ...(mode === 'parallel' ? { planner: config.planner.name } : {}),
    callCount: calls.length,
    maxConcurrency: cap,
  });
  const batch = new BatchState({
    config,
    calls,
    progressEvents: options.progressEvents ?? true,
    observer: subscriber,
    instrument,
    onFailure: dispatch.onFailure,
    planned: true,
  });
  if (signal?.aborted) {
    const error = cancelled(signal);
    batch.endInstrument('cancelled', error);
    subscriber.error(error);
    return undefined;
  }
  let planned: ReturnType<typeof planBatch>;
  try {
    planned = planBatch({
      planner: config.planner,
      prepared: batch.prepared,
      mode,
      maxConcurrency: cap,
    });
  } catch (error) {
    batch.endInstrument('failed', error);
    subscriber.error(error);
    return undefined;
  }
  const onAbort = (): void => batch.fail(cancelled(signal!));
  signal?.addEventListener('abort', onAbort, { once: true });
  let explanation: CallExplanation[] | undefined;
  const { plan } = planned;
  const batchStart: BatchStartEvent = {
    type: 'batch-start',
    mode,
    maxConcurrency: cap,
    callCount: calls.length,
    plan,
    get explanation() {
      explanation ??= planned.explain();
      return explanation;
    },
  };
  const subscription = concat(
    of<DispatchEvent>(batchStart),
    from(plan.waves).pipe(
      concatMap((wave, position) => runWave(batch, wave, position, cap, mode === 'sequential')),
    ),
    defer(() => {
      const waves = plan.waves.length;
      const { failure } = batch;
      if (failure !== undefined) {
        batch.endInstrument(failure.code === 'cancelled' ? 'cancelled' : 'failed', failure, waves);
        return throwError(() => failure);
      }
      batch.finished = true;
      batch.endInstrument('ok', undefined, waves);
      return of<DispatchEvent>({
        type: 'batch-end',
        results: fillResultSlots(calls, batch.results),
        durationMs: batch.now() - batch.startedAt,
      });
    }),
  ).subscribe(subscriber);
  return () => {
    signal?.removeEventListener('abort', onAbort);
    subscription.unsubscribe();
    batch.dispose();
    batch.endInstrument('cancelled', batch.failure, plan.waves.length);
  };
}

function cancelled(signal: AbortSignal): DispatchError {
  return new DispatchError({
    code: 'cancelled',
    message: 'The dispatch was cancelled',
    cause: signal.reason,
  });
}
