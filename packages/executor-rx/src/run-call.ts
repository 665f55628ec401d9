import {
  describeValue,
  type Tool,
  type ToolCall,
  type ToolOutput,
  validateInput,
} from '@toolwaves/core';
import { Observable, type Subscriber, type Subscription } from 'rxjs';
import type { BatchRun, StoppableCall } from './batch-run.js';
import { DispatchError } from './dispatch-error.js';
import type { CallOutcome, DispatchEvent } from './dispatch-event.js';
import type { PreHookDecision } from './dispatch-hooks.js';
import { errorMessage } from './error-message.js';
import { isPromiseLike } from './is-promise-like.js';
import { MAX_RETRIES, type RecoveryDecision } from './recovery-strategy.js';
import type { Reflection } from './reflector.js';
import type { SoftErrorKind, SoftFailure } from './soft-failure.js';
import { startNested } from './start-nested.js';

/**
 * The per-call pipeline, the same in both modes, as an Observable of the call's events: for
 * each attempt, `call-start`, then validate input → pre hooks → execute (with the timeout,
 * racing cancellation) → post hooks → health record → recovery, then `call-end`. The result
 * goes to the call's slot in the batch; the Observable completes when the call is done and
 * never errors (a hard error goes to the batch, which stops the other calls in flight).
 * Nothing starts when the batch has already failed. While it runs the call is in the batch's
 * `inFlight` set, through which the batch stops it (hard error) or abandons it (unsubscribed).
 */
export function runCall(batch: BatchRun, index: number, wave: number): Observable<DispatchEvent> {
  return new Observable<DispatchEvent>((subscriber) => {
    if (batch.failure !== undefined) {
      subscriber.complete();
      return undefined;
    }
    // No teardown per call: when the run is unsubscribed from, the batch abandons its calls.
    startNested(batch, subscriber, new CallRun(batch, index, wave, subscriber));
    return undefined;
  });
}

/** One call of a batch, attempt by attempt. */
class CallRun implements StoppableCall {
  readonly #batch: BatchRun;
  readonly #index: number;
  readonly #wave: number;
  readonly #call: ToolCall;
  readonly #subscriber: Subscriber<DispatchEvent>;
  /** The tool and input of the current attempt (a recovery correction may change them). */
  #toolName: string;
  #input: unknown;
  #attempt = 0;
  /** Bumped when pending continuations (a tool's promise, an async hook) become stale. */
  #token = 0;
  #closed = false;
  /** A `call-start` was emitted and its `call-end` not yet. */
  #open = false;
  /** When the current attempt became ready to start, and when it started. */
  #readyAt = 0;
  #startedAt = 0;
  #timer: Subscription | undefined;
  /** The attempt's own controller, only with `timeoutMs` (else tools see the batch's signal). */
  #controller: AbortController | undefined;
  #tool: Tool | undefined;
  #value: unknown;
  /** How the current attempt went. */
  #content = '';
  #isError = false;
  #kind: SoftErrorKind = 'tool_error';
  #error: unknown;
  #durationMs = 0;

  constructor(batch: BatchRun, index: number, wave: number, subscriber: Subscriber<DispatchEvent>) {
    this.#batch = batch;
    this.#index = index;
    this.#wave = wave;
    this.#subscriber = subscriber;
    const call = batch.calls[index]!;
    this.#call = call;
    this.#toolName = String(call.name);
    this.#input = call.input;
  }

  start(): void {
    this.#batch.inFlight.add(this);
    this.#readyAt = this.#batch.waveStartedAt;
    this.#begin();
  }

  /** Called by the batch on a hard error. */
  stop(outcome: Extract<CallOutcome, 'cancelled' | 'aborted'>): void {
    if (this.#closed) return;
    if (this.#open) this.#end(outcome, undefined, this.#batch.now() - this.#startedAt);
    this.#controller?.abort(this.#batch.failure);
    this.#close();
    this.#subscriber.complete();
  }

  /** Called by the batch when the run is unsubscribed from: stops quietly (no more events). */
  abandon(): void {
    if (this.#closed) return;
    this.#controller?.abort(this.#batch.failure);
    this.#close();
  }

  #begin(): void {
    const batch = this.#batch;
    this.#attempt += 1;
    this.#controller = undefined;
    this.#tool = undefined;
    this.#error = undefined;
    this.#startedAt = batch.now();
    this.#open = true;
    if (batch.progressEvents) this.#emitStart();
    if (this.#closed) return;
    const registry = batch.config.registry;
    const tool = registry.get(this.#toolName);
    if (tool === undefined) {
      const names = registry.names();
      const known =
        names.length === 0
          ? 'no tools are registered'
          : `registered tools: ${names.map((name) => `\`${name}\``).join(', ')}`;
      this.#softFail('unknown_tool', `Unknown tool \`${this.#toolName}\`; ${known}`);
      return;
    }
    const validation = validateInput(tool, this.#input);
    if (!validation.ok) {
      this.#softFail('invalid_input', validation.message);
      return;
    }
    this.#tool = tool;
    this.#value = validation.value;
    if (batch.config.preHooks.length === 0) this.#execute();
    else this.#runPreHooks(0);
  }

  #emitStart(): void {
    this.#subscriber.next({
      type: 'call-start',
      wave: this.#wave,
      index: this.#index,
      toolCallId: this.#call.id,
      toolName: this.#toolName,
      input: this.#input,
      attempt: this.#attempt,
    });
  }

  #signal(): AbortSignal {
    if (this.#batch.config.timeoutMs === undefined) return this.#batch.controller.signal;
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  #runPreHooks(from: number): void {
    const hooks = this.#batch.config.preHooks;
    for (let i = from; i < hooks.length; i++) {
      let decision: PreHookDecision | undefined | PromiseLike<PreHookDecision | undefined>;
      try {
        decision = hooks[i]!({
          call: this.#call,
          index: this.#index,
          tool: this.#tool!,
          input: this.#value,
          attempt: this.#attempt,
          signal: this.#signal(),
        });
      } catch (error) {
        this.#preHookThrew(i, error);
        return;
      }
      if (isPromiseLike(decision)) {
        const token = this.#token;
        decision.then(
          (settled) => {
            if (token === this.#token && this.#applyPreDecision(i, settled))
              this.#runPreHooks(i + 1);
          },
          (error: unknown) => {
            if (token === this.#token) this.#preHookThrew(i, error);
          },
        );
        return;
      }
      if (!this.#applyPreDecision(i, decision)) return;
    }
    this.#execute();
  }

  /** Applies a pre hook's decision; `true` when the call may go on. */
  #applyPreDecision(hook: number, decision: PreHookDecision | undefined): boolean {
    if (decision === undefined || decision?.action === 'allow') return true;
    if (decision?.action === 'block') {
      this.#softFail('blocked', `Blocked by a pre hook: ${decision.reason}`);
      return false;
    }
    if (decision?.action === 'abort') {
      const code = decision.code === 'loop_detected' ? 'loop_detected' : 'aborted';
      this.#hardFail(
        new DispatchError({
          code,
          message:
            code === 'loop_detected'
              ? decision.reason
              : `A pre hook aborted the batch at call \`${this.#call.id}\` (\`${this.#toolName}\`): ${decision.reason}`,
          toolCallId: this.#call.id,
          toolName: this.#toolName,
          attempts: this.#attempt,
        }),
      );
      return false;
    }
    this.#softFail(
      'hook_failed',
      `Pre hook ${hook} returned ${describeValue(decision)}, not { action: 'allow' | 'block' | 'abort' }`,
    );
    return false;
  }

  #preHookThrew(hook: number, error: unknown): void {
    this.#softFail('hook_failed', `Pre hook ${hook} threw: ${errorMessage(error)}`, error);
  }

  #execute(): void {
    const { scheduler, timeoutMs } = this.#batch.config;
    const token = this.#token;
    const signal = this.#signal();
    if (timeoutMs !== undefined) {
      this.#timer = scheduler.schedule(() => this.#onTimeout(token, timeoutMs), timeoutMs);
    }
    let output: string | ToolOutput | PromiseLike<string | ToolOutput>;
    try {
      output = this.#tool!.execute(this.#value, {
        toolCallId: this.#call.id,
        signal,
        attempt: this.#attempt,
      });
    } catch (error) {
      this.#onThrow(token, error);
      return;
    }
    if (isPromiseLike(output)) {
      output.then(
        (value) => this.#onOutput(token, value),
        (error: unknown) => this.#onThrow(token, error),
      );
    } else {
      this.#onOutput(token, output);
    }
  }

  #onOutput(token: number, output: unknown): void {
    if (token !== this.#token) return;
    this.#clearTimer();
    if (typeof output === 'string') {
      this.#ran(output, false, 'tool_reported');
    } else if (
      typeof output === 'object' &&
      output !== null &&
      typeof (output as ToolOutput).content === 'string'
    ) {
      this.#ran(
        (output as ToolOutput).content,
        (output as ToolOutput).isError === true,
        'tool_reported',
      );
    } else {
      this.#ran(
        `Tool \`${this.#toolName}\` returned ${describeValue(output)}, not a string or { content }`,
        true,
        'tool_error',
      );
    }
  }

  #onThrow(token: number, error: unknown): void {
    if (token !== this.#token) return;
    this.#clearTimer();
    this.#error = error;
    this.#ran(`Tool \`${this.#toolName}\` failed: ${errorMessage(error)}`, true, 'tool_error');
  }

  #onTimeout(token: number, timeoutMs: number): void {
    if (token !== this.#token) return;
    this.#timer = undefined;
    this.#token += 1;
    const message = `Tool \`${this.#toolName}\` timed out after ${timeoutMs} ms`;
    const reason = new Error(message);
    reason.name = 'TimeoutError';
    this.#controller?.abort(reason);
    this.#ran(message, true, 'timeout');
  }

  /** The tool ran (answered, threw or timed out): post hooks, health, then recovery. */
  #ran(content: string, isError: boolean, kind: SoftErrorKind): void {
    this.#content = content;
    this.#isError = isError;
    this.#kind = kind;
    this.#durationMs = this.#batch.now() - this.#startedAt;
    const toolOk = !isError;
    if (this.#batch.config.postHooks.length === 0) this.#record(toolOk);
    else this.#runPostHooks(0, toolOk);
  }

  #runPostHooks(from: number, toolOk: boolean): void {
    const hooks = this.#batch.config.postHooks;
    for (let i = from; i < hooks.length; i++) {
      let done: void | PromiseLike<void>;
      try {
        done = hooks[i]!({
          call: this.#call,
          index: this.#index,
          toolName: this.#toolName,
          input: this.#value,
          content: this.#content,
          isError: this.#isError,
          durationMs: this.#durationMs,
          attempt: this.#attempt,
        });
      } catch (error) {
        this.#postHookThrew(i, error);
        this.#record(toolOk);
        return;
      }
      if (isPromiseLike(done)) {
        const token = this.#token;
        done.then(
          () => {
            if (token === this.#token) this.#runPostHooks(i + 1, toolOk);
          },
          (error: unknown) => {
            if (token !== this.#token) return;
            this.#postHookThrew(i, error);
            this.#record(toolOk);
          },
        );
        return;
      }
    }
    this.#record(toolOk);
  }

  #postHookThrew(hook: number, error: unknown): void {
    this.#content = `Post hook ${hook} threw: ${errorMessage(error)}`;
    this.#isError = true;
    this.#kind = 'hook_failed';
    this.#error = error;
  }

  #record(toolOk: boolean): void {
    this.#batch.config.health.record({
      toolName: this.#toolName,
      ok: toolOk,
      durationMs: this.#durationMs,
    });
    this.#conclude();
  }

  /** A soft error before the tool ran: no post hooks, no health record. */
  #softFail(kind: SoftErrorKind, content: string, error?: unknown): void {
    this.#content = content;
    this.#isError = true;
    this.#kind = kind;
    this.#error = error;
    this.#durationMs = this.#batch.now() - this.#startedAt;
    this.#conclude();
  }

  #conclude(): void {
    if (!this.#isError) {
      this.#finish('ok');
      return;
    }
    const recovery = this.#batch.config.recovery;
    if (recovery === undefined) {
      this.#finish('error');
      return;
    }
    const failure: SoftFailure = {
      kind: this.#kind,
      message: this.#content,
      call: this.#call,
      index: this.#index,
      toolName: this.#toolName,
      input: this.#input,
      attempt: this.#attempt,
      ...(this.#error === undefined ? {} : { error: this.#error }),
    };
    const token = this.#token;
    let reflection: Reflection | PromiseLike<Reflection>;
    try {
      reflection = recovery.reflector.reflect(failure);
    } catch (error) {
      this.#recoveryThrew('reflector', error);
      return;
    }
    if (isPromiseLike(reflection)) {
      reflection.then(
        (settled) => {
          if (token === this.#token) this.#decide(settled);
        },
        (error: unknown) => {
          if (token === this.#token) this.#recoveryThrew('reflector', error);
        },
      );
    } else {
      this.#decide(reflection);
    }
  }

  #decide(reflection: Reflection): void {
    const strategy = this.#batch.config.recovery!.strategy;
    const token = this.#token;
    let decision: RecoveryDecision | PromiseLike<RecoveryDecision>;
    try {
      decision = strategy.decide(reflection);
    } catch (error) {
      this.#recoveryThrew(`strategy \`${strategy.name}\``, error);
      return;
    }
    if (isPromiseLike(decision)) {
      decision.then(
        (settled) => {
          if (token === this.#token) this.#apply(settled);
        },
        (error: unknown) => {
          if (token === this.#token) this.#recoveryThrew(`strategy \`${strategy.name}\``, error);
        },
      );
    } else {
      this.#apply(decision);
    }
  }

  #apply(decision: RecoveryDecision): void {
    const strategy = this.#batch.config.recovery!.strategy;
    const attempts = this.#attempt;
    switch (decision?.action) {
      case 'skip':
        if (attempts > 1) {
          this.#content = `Recovery gave up on \`${this.#toolName}\` after ${attempts} attempts: ${this.#content}`;
        }
        this.#finish('error');
        return;
      case 'fail':
        this.#hardFail(
          this.#recoveryError(
            `Recovery strategy \`${strategy.name}\` failed the batch at call \`${this.#call.id}\` (\`${this.#toolName}\`) after ${attempts} attempt${attempts === 1 ? '' : 's'}${decision.reason === undefined ? '' : `: ${decision.reason}`}; last error: ${this.#content}`,
          ),
        );
        return;
      case 'retry':
        this.#retry(decision);
        return;
      default:
        this.#hardFail(
          new DispatchError({
            code: 'invalid_config',
            message: `Expected recovery strategy \`${strategy.name}\` to decide { action: 'retry' | 'skip' | 'fail' }, got ${describeValue(decision)}`,
            toolCallId: this.#call.id,
            toolName: this.#toolName,
            attempts,
          }),
        );
    }
  }

  #retry(decision: Extract<RecoveryDecision, { action: 'retry' }>): void {
    const attempts = this.#attempt;
    if (attempts > MAX_RETRIES) {
      this.#hardFail(
        this.#recoveryError(
          `Recovery exhausted: \`${this.#toolName}\` (call \`${this.#call.id}\`) failed ${attempts} attempts (at most ${MAX_RETRIES} retries); last error: ${this.#content}`,
        ),
      );
      return;
    }
    const { delayMs, correction } = decision;
    if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0) {
      this.#hardFail(
        new DispatchError({
          code: 'invalid_config',
          message: `Expected \`delayMs\` of the retry decided by recovery strategy \`${this.#batch.config.recovery!.strategy.name}\` to be a finite number from 0 and up, got ${describeValue(delayMs)}`,
          toolCallId: this.#call.id,
          toolName: this.#toolName,
          attempts,
        }),
      );
      return;
    }
    this.#end('retry', this.#content, this.#durationMs);
    if (this.#closed) return;
    if (typeof correction?.toolName === 'string') this.#toolName = correction.toolName;
    if (correction !== undefined && Object.hasOwn(correction, 'input')) {
      this.#input = correction.input;
    }
    this.#readyAt = this.#batch.now();
    if (delayMs === 0) {
      this.#begin();
      return;
    }
    const token = this.#token;
    this.#timer = this.#batch.config.scheduler.schedule(() => {
      if (token !== this.#token) return;
      this.#timer = undefined;
      this.#begin();
    }, delayMs);
  }

  #recoveryError(message: string): DispatchError {
    return new DispatchError({
      code: 'recovery_exhausted',
      message,
      toolCallId: this.#call.id,
      toolName: this.#toolName,
      attempts: this.#attempt,
      ...(this.#error === undefined ? {} : { cause: this.#error }),
    });
  }

  #recoveryThrew(what: string, error: unknown): void {
    this.#hardFail(
      new DispatchError({
        code: 'recovery_exhausted',
        message: `Recovery ${what} threw at call \`${this.#call.id}\` (\`${this.#toolName}\`) after ${this.#attempt} attempt${this.#attempt === 1 ? '' : 's'}: ${errorMessage(error)}`,
        cause: error,
        toolCallId: this.#call.id,
        toolName: this.#toolName,
        attempts: this.#attempt,
      }),
    );
  }

  #finish(outcome: 'ok' | 'error'): void {
    this.#batch.results[this.#index] = {
      toolCallId: this.#call.id,
      toolName: this.#toolName,
      content: this.#content,
      isError: this.#isError,
      durationMs: this.#durationMs,
    };
    this.#end(outcome, this.#content, this.#durationMs);
    if (this.#closed) return;
    this.#close();
    this.#subscriber.complete();
  }

  #hardFail(error: DispatchError): void {
    if (this.#open) this.#end('hard-error', error.message, this.#batch.now() - this.#startedAt);
    if (this.#closed) return;
    this.#close();
    this.#batch.fail(error);
    this.#subscriber.complete();
  }

  #end(outcome: CallOutcome, content: string | undefined, durationMs: number): void {
    this.#open = false;
    if (!this.#batch.progressEvents) return;
    this.#subscriber.next({
      type: 'call-end',
      wave: this.#wave,
      index: this.#index,
      toolCallId: this.#call.id,
      toolName: this.#toolName,
      attempt: this.#attempt,
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
    this.#token += 1;
    this.#clearTimer();
    this.#batch.inFlight.delete(this);
  }
}
