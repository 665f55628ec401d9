import type { Declarations } from '@toolwaves/core/internal';
import { mayStartWhileStreaming } from '@toolwaves/core/internal';
import { type MonoTypeOperatorFunction, Observable, Subject } from 'rxjs';
import { startAttempt } from './attempt/index.js';
import { errorMessage } from './attempt-answer.js';
import type { BatchStop, RetryHold, ScheduledBatch } from './call-batch.js';
import type { CallSkippedEvent, DispatchEvent } from './dispatch-event.js';
import type { PreparedCall } from './prepared-call.js';
import type { SubmitterContext } from './submitter-context.js';

/** An arriving call of a stream, as {@link holdSideEffects} sees it. */
export interface HeldCall {
  /** Position in model order: calls arrive in it. */
  readonly index: number;
  /** The earlier calls it waits for: a call that waits for a held call is held with it. */
  readonly dependencies: readonly number[];
  /** The async context the call was submitted in (its instrumentation runs there). */
  readonly submitter: SubmitterContext;
}

/** What {@link holdSideEffects} makes of a stream's calls. */
export interface SideEffectHold<C extends HeldCall> extends RetryHold {
  /**
   * Goes between the arrivals and the schedule, before the source's failure is handled: a call
   * that may start while the model writes passes at once, any other is held until the source
   * ends normally (then the held calls go on, in model order, before the end); a failing source
   * releases nothing.
   */
  readonly calls: MonoTypeOperatorFunction<C>;
  /**
   * The answers of the calls still held when the batch stops (the source failed, the caller
   * cancelled, a hard error): each a `call-skipped` event `message-incomplete`, emitted before
   * the batch's error. Completes once nothing can be held any more.
   */
  readonly answers: Observable<DispatchEvent>;
}

/**
 * `whileStreaming: 'read-only'` for one stream or turn (README: Side effects held back while the
 * model writes). A call starts before the message is complete only when core's reading of its
 * declarations positively says it is a concurrency-safe read (`mayStartWhileStreaming`: an
 * allowlist); so does a repeated id, which runs nothing. Every other call, and every call that
 * waits for a held one (its dependencies must have arrived before it), is held back until the
 * source ends normally. Held calls are not in the schedule, so they take no slot under
 * `maxConcurrency` while they wait and never hold up a read behind them.
 *
 * @example
 * ```ts
 * const hold = holdSideEffects(batch);
 * const events = merge(arrivals.pipe(hold.calls, catchError(stopBatch), scheduleEager(options)), hold.answers);
 * ```
 */
export function holdSideEffects<C extends HeldCall>(batch: ScheduledBatch): SideEffectHold<C> {
  const answers = new Subject<DispatchEvent>();
  /** Calls waiting for the message's end, in model order; `undefined` once nothing is held. */
  let held: C[] | undefined = [];
  const isHeld: boolean[] = [];
  const stopped = (stop: BatchStop): void => {
    const waiting = held;
    held = undefined;
    if (waiting === undefined) return;
    for (const call of waiting) answers.next(heldBackAnswer({ batch, held: call, isHeld, stop }));
    answers.complete();
  };
  const calls: MonoTypeOperatorFunction<C> = (arrivals) =>
    new Observable<C>((subscriber) => {
      const stops = batch.stops.subscribe(stopped);
      const source = arrivals.subscribe({
        next: (call) => {
          if (held !== undefined && mustWait(batch, call, isHeld)) {
            isHeld[call.index] = true;
            held.push(call);
          } else {
            subscriber.next(call);
          }
        },
        // Held calls stay held: the batch's stop, which follows, answers them.
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          // The message is complete: the held calls go to the schedule, in model order.
          const waiting = held ?? [];
          held = undefined;
          stops.unsubscribe();
          answers.complete();
          for (const call of waiting) subscriber.next(call);
          subscriber.complete();
        },
      });
      return () => {
        source.unsubscribe();
        stops.unsubscribe();
      };
    });
  const refusedRetry = (prepared: PreparedCall): string | undefined => {
    if (held === undefined || mayStartWhileStreaming(prepared.declarations)) return undefined;
    const { call, toolName } = prepared;
    return `Call \`${call.id}\` was not retried: recovery corrected it into \`${toolName}\`, but ${notReadBecause(prepared.declarations)}, and the model's message is not complete yet. Nothing the correction asked for was done.`;
  };
  return { calls, answers, refusedRetry };
}

/** Whether an arriving call must wait for the message's end. */
function mustWait(batch: ScheduledBatch, call: HeldCall, isHeld: readonly boolean[]): boolean {
  for (const dependency of call.dependencies) if (isHeld[dependency] === true) return true;
  if (batch.repeats[call.index] !== undefined) return false; // answered without running
  return !mayStartWhileStreaming(batch.prepared.declarations(call.index));
}

/** What {@link heldBackAnswer} answers. */
interface HeldBack {
  readonly batch: ScheduledBatch;
  readonly held: HeldCall;
  /** Per call, whether it was held. */
  readonly isHeld: readonly boolean[];
  readonly stop: BatchStop;
}

/** The soft error of a call held back from a message that never completed. */
function heldBackAnswer(options: HeldBack): CallSkippedEvent {
  const { batch, held, stop } = options;
  const { index, submitter } = held;
  const prepared = batch.prepared.call(index);
  const { call, toolName } = prepared;
  const why = heldFor(options);
  const content = `Call \`${call.id}\` (\`${toolName}\`) was not started: ${why}, so it waited for the model's message to be complete, and ${endOf(stop)}. Nothing it asked for was done.`;
  const result = { toolCallId: call.id, toolName, content, isError: true, durationMs: 0 };
  // The instrumentation sees it as an attempt that ended at once, never run.
  startAttempt({ batch, prepared, attempt: 1, waitedFor: [], submitter })?.end({
    outcome: 'error',
    errorKind: 'message_incomplete',
    result,
    retried: false,
  });
  return {
    type: 'call-skipped',
    wave: undefined,
    index,
    toolCallId: call.id,
    toolName,
    reason: 'message-incomplete',
    content,
    result,
  };
}

/** Why a call was held: its own declarations, or an earlier held call it waits for. */
function heldFor(options: HeldBack): string {
  const { batch, held, isHeld } = options;
  const declarations: Declarations = batch.prepared.declarations(held.index);
  if (batch.repeats[held.index] !== undefined || mayStartWhileStreaming(declarations)) {
    const first = held.dependencies.find((dependency) => isHeld[dependency] === true);
    return `it waits for call \`${batch.calls[first ?? -1]?.id ?? '?'}\`, which was held back`;
  }
  return notReadBecause(declarations);
}

/** Why declarations that are not a read's are not (the allowlist said no). */
function notReadBecause(declarations: Declarations): string {
  switch (declarations.reason) {
    case 'unknown_tool':
      return 'no tool has its name, so nothing says it only reads';
    case 'invalid_input':
      return 'its input is invalid, so nothing says it only reads';
    case 'declaration_threw':
    case 'malformed_declaration':
      return 'its declarations could not be read, so nothing says it only reads';
    case 'not_declared_safe':
      return 'it is not declared concurrency-safe, so it may have side effects';
    default: {
      const write = declarations.accesses.find((access) => access.mode !== 'read');
      return `it declares a write (\`${write?.key ?? '?'}\`)`;
    }
  }
}

/** How the message ended, for the answer. */
function endOf(stop: BatchStop): string {
  const { error } = stop;
  if (error.code === 'source_failed')
    return `the message failed before it was complete (${errorMessage(error)})`;
  if (error.code === 'cancelled')
    return 'the dispatch was cancelled before the message was complete';
  return `the dispatch stopped before the message was complete (${errorMessage(error)})`;
}
