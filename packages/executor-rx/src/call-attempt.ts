import type { Tool, ToolCall } from '@toolwaves/core';
import type { BatchRun } from './batch-run.js';
import type { DispatchError } from './dispatch-error.js';
import type { RecoveryCorrection } from './reflector.js';
import type { SoftErrorKind } from './soft-failure.js';

/**
 * What the stages of the per-call pipeline (pre hooks, execution, post hooks, recovery) see of
 * the call they run for: the current attempt's state, read-only, and the transitions that move
 * the call on. Only `CallRun` implements it: the stages read its state and never write it, and
 * the call's lifecycle (open, closed, timer, controller) stays inside `CallRun`.
 *
 * A stage that waits for a promise notes {@link CallAttempt.token} first and drops the answer
 * when the token has changed since (the attempt timed out, or the call was stopped).
 *
 * @see runPreHooks
 * @see executeAttempt
 * @see runPostHooks
 * @see recoverAttempt
 */
export interface CallAttempt {
  readonly batch: BatchRun;
  /** The call as the model asked for it. */
  readonly call: ToolCall;
  /** Position of the call in the batch. */
  readonly index: number;
  /** The tool this attempt asks for (a recovery correction may have changed it). */
  readonly toolName: string;
  /** The input this attempt uses, as given (a recovery correction may have changed it). */
  readonly input: unknown;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /** Changes when pending continuations (a tool's promise, an async hook) become stale. */
  readonly token: number;
  /** The attempt's tool, once the call passed validation. */
  readonly tool: Tool | undefined;
  /** The attempt's input as the tool's schema parsed it, once the call passed validation. */
  readonly value: unknown;
  /** How the attempt went: the result content, whether it is an error, of what kind, why. */
  readonly content: string;
  readonly isError: boolean;
  readonly kind: SoftErrorKind;
  /** What was thrown, for `tool_error` and `hook_failed`. */
  readonly error: unknown;
  readonly durationMs: number;

  /** The signal the attempt's hooks and tool see (the attempt's own with `timeoutMs`). */
  signal(): AbortSignal;
  /** Runs `work` after `delayMs` on the dispatcher's scheduler; cleared when the call ends. */
  setTimer(work: () => void, delayMs: number): void;
  /** The attempt's timer fired: pending continuations go stale, its signal aborts with `reason`. */
  timedOut(reason: Error): void;
  /** A soft error before the tool ran: no post hooks, no health record, then recovery. */
  softFail(kind: SoftErrorKind, content: string, error?: unknown): void;
  /** The tool ran (answered, threw or timed out): post hooks, health record, then recovery. */
  ran(content: string, isError: boolean, kind: SoftErrorKind, error?: unknown): void;
  /** A post hook failed: the attempt's answer becomes this soft error. */
  overrule(kind: SoftErrorKind, content: string, error: unknown): void;
  /** Records the tool's health (`toolOk`: its own answer, whatever the post hooks did), then recovery. */
  record(toolOk: boolean): void;
  /** Ends the call with its result in the batch's slot. */
  finish(outcome: 'ok' | 'error', content: string): void;
  /** Ends the attempt as a retry and starts the next one after `delayMs`, corrected. */
  retry(delayMs: number, correction: RecoveryCorrection | undefined): void;
  /** Fails the batch with a hard error. */
  hardFail(error: DispatchError): void;
}
