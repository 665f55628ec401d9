import { type Tool, type ToolCall, validateInput } from '@toolwaves/core';
import type { Subscriber, Subscription } from 'rxjs';
import type { BatchRun, StoppableCall } from './batch-run.js';
import type { CallAttempt } from './call-attempt.js';
import type { DispatchError } from './dispatch-error.js';
import type { CallOutcome, DispatchEvent } from './dispatch-event.js';
import { executeAttempt } from './execute-attempt.js';
import { recoverAttempt } from './recover-attempt.js';
import type { RecoveryCorrection } from './reflector.js';
import { runPostHooks } from './run-post-hooks.js';
import { runPreHooks } from './run-pre-hooks.js';
import type { SoftErrorKind } from './soft-failure.js';

/**
 * One call of a batch, attempt by attempt: the call's state and the transitions between the
 * stages of its pipeline. Each attempt emits `call-start`, validates the input (unknown tool,
 * invalid input), then goes through {@link runPreHooks} → {@link executeAttempt} →
 * {@link runPostHooks} → health record → {@link recoverAttempt} (when it ended with a soft
 * error and the dispatcher has recovery), and emits `call-end`. The call ends with its result
 * in its slot, or with a hard error for the batch; the batch may also stop it (hard error
 * elsewhere) or abandon it (nobody listens any more).
 *
 * @see runCall which starts it.
 */
export class CallRun implements CallAttempt, StoppableCall {
  // The attempt's state, as `CallAttempt` describes it: read by the stages, written only here.
  readonly batch: BatchRun;
  readonly index: number;
  readonly call: ToolCall;
  toolName: string;
  input: unknown;
  attempt = 0;
  token = 0;
  tool: Tool | undefined;
  value: unknown;
  content = '';
  isError = false;
  kind: SoftErrorKind = 'tool_error';
  error: unknown;
  durationMs = 0;
  readonly #wave: number;
  readonly #subscriber: Subscriber<DispatchEvent>;
  /** The call ended (finished, failed, stopped or abandoned): nothing more happens. */
  #closed = false;
  /** A `call-start` was emitted and its `call-end` not yet. */
  #open = false;
  /** When the current attempt became ready to start, and when it started. */
  #readyAt = 0;
  #startedAt = 0;
  /** The attempt's time-out, or the back-off before the next attempt. */
  #timer: Subscription | undefined;
  /** The attempt's own controller, only with `timeoutMs` (else tools see the batch's signal). */
  #controller: AbortController | undefined;

  constructor(batch: BatchRun, index: number, wave: number, subscriber: Subscriber<DispatchEvent>) {
    this.batch = batch;
    this.index = index;
    this.#wave = wave;
    this.#subscriber = subscriber;
    const call = batch.calls[index]!;
    this.call = call;
    this.toolName = String(call.name);
    this.input = call.input;
  }

  /** Called when the call's turn comes: joins the batch's calls in flight, first attempt. */
  start(): void {
    this.batch.inFlight.add(this);
    this.#readyAt = this.batch.waveStartedAt;
    this.#begin();
  }

  /** Called by the batch on a hard error. */
  stop(outcome: Extract<CallOutcome, 'cancelled' | 'aborted'>): void {
    if (this.#closed) return;
    if (this.#open) this.#end(outcome, undefined, this.batch.now() - this.#startedAt);
    this.#controller?.abort(this.batch.failure);
    this.#close();
    this.#subscriber.complete();
  }

  /** Called by the batch when the run is unsubscribed from: stops quietly (no more events). */
  abandon(): void {
    if (this.#closed) return;
    this.#controller?.abort(this.batch.failure);
    this.#close();
  }

  // The transitions the stages call (see `CallAttempt` for each).

  signal(): AbortSignal {
    if (this.batch.config.timeoutMs === undefined) return this.batch.controller.signal;
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  setTimer(work: () => void, delayMs: number): void {
    this.#timer = this.batch.config.scheduler.schedule(work, delayMs);
  }

  timedOut(reason: Error): void {
    this.#timer = undefined;
    this.token += 1;
    this.#controller?.abort(reason);
  }

  softFail(kind: SoftErrorKind, content: string, error?: unknown): void {
    this.content = content;
    this.isError = true;
    this.kind = kind;
    this.error = error;
    this.durationMs = this.batch.now() - this.#startedAt;
    this.#conclude();
  }

  ran(content: string, isError: boolean, kind: SoftErrorKind, error?: unknown): void {
    this.#clearTimer();
    this.content = content;
    this.isError = isError;
    this.kind = kind;
    this.error = error;
    this.durationMs = this.batch.now() - this.#startedAt;
    const toolOk = !isError;
    if (this.batch.config.postHooks.length === 0) this.record(toolOk);
    else runPostHooks(this, 0, toolOk);
  }

  overrule(kind: SoftErrorKind, content: string, error: unknown): void {
    this.content = content;
    this.isError = true;
    this.kind = kind;
    this.error = error;
  }

  record(toolOk: boolean): void {
    this.batch.config.health.record({
      toolName: this.toolName,
      ok: toolOk,
      durationMs: this.durationMs,
    });
    this.#conclude();
  }

  finish(outcome: 'ok' | 'error', content: string): void {
    this.content = content;
    this.batch.results[this.index] = {
      toolCallId: this.call.id,
      toolName: this.toolName,
      content,
      isError: this.isError,
      durationMs: this.durationMs,
    };
    this.#end(outcome, content, this.durationMs);
    if (this.#closed) return;
    this.#close();
    this.#subscriber.complete();
  }

  retry(delayMs: number, correction: RecoveryCorrection | undefined): void {
    this.#end('retry', this.content, this.durationMs);
    if (this.#closed) return;
    if (typeof correction?.toolName === 'string') this.toolName = correction.toolName;
    if (correction !== undefined && Object.hasOwn(correction, 'input')) {
      this.input = correction.input;
    }
    this.#readyAt = this.batch.now();
    if (delayMs === 0) {
      this.#begin();
      return;
    }
    const token = this.token;
    this.setTimer(() => {
      if (token !== this.token) return;
      this.#timer = undefined;
      this.#begin();
    }, delayMs);
  }

  hardFail(error: DispatchError): void {
    if (this.#open) this.#end('hard-error', error.message, this.batch.now() - this.#startedAt);
    if (this.#closed) return;
    this.#close();
    this.batch.fail(error);
    this.#subscriber.complete();
  }

  /** Starts an attempt: `call-start`, then the tool is looked up and the input validated. */
  #begin(): void {
    const batch = this.batch;
    this.attempt += 1;
    this.#controller = undefined;
    this.tool = undefined;
    this.error = undefined;
    this.#startedAt = batch.now();
    this.#open = true;
    if (batch.progressEvents) this.#emitStart();
    if (this.#closed) return;
    const registry = batch.config.registry;
    const tool = registry.get(this.toolName);
    if (tool === undefined) {
      const names = registry.names();
      const known =
        names.length === 0
          ? 'no tools are registered'
          : `registered tools: ${names.map((name) => `\`${name}\``).join(', ')}`;
      this.softFail('unknown_tool', `Unknown tool \`${this.toolName}\`; ${known}`);
      return;
    }
    const validation = validateInput(tool, this.input);
    if (!validation.ok) {
      this.softFail('invalid_input', validation.message);
      return;
    }
    this.tool = tool;
    this.value = validation.value;
    if (batch.config.preHooks.length === 0) executeAttempt(this);
    else runPreHooks(this, 0);
  }

  /** The attempt is over: the call finishes, or recovery decides what comes next. */
  #conclude(): void {
    if (!this.isError) {
      this.finish('ok', this.content);
      return;
    }
    const recovery = this.batch.config.recovery;
    if (recovery === undefined) {
      this.finish('error', this.content);
      return;
    }
    recoverAttempt(this, recovery);
  }

  #emitStart(): void {
    this.#subscriber.next({
      type: 'call-start',
      wave: this.#wave,
      index: this.index,
      toolCallId: this.call.id,
      toolName: this.toolName,
      input: this.input,
      attempt: this.attempt,
    });
  }

  #end(outcome: CallOutcome, content: string | undefined, durationMs: number): void {
    this.#open = false;
    if (!this.batch.progressEvents) return;
    this.#subscriber.next({
      type: 'call-end',
      wave: this.#wave,
      index: this.index,
      toolCallId: this.call.id,
      toolName: this.toolName,
      attempt: this.attempt,
      outcome,
      isError: outcome !== 'ok',
      content,
      durationMs,
      waitMs: this.#startedAt - this.#readyAt,
    });
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) {
      this.#timer.unsubscribe();
      this.#timer = undefined;
    }
  }

  #close(): void {
    this.#closed = true;
    this.token += 1;
    this.#clearTimer();
    this.batch.inFlight.delete(this);
  }
}
