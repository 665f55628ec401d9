import { describeValue } from '@toolwaves/core';
import type { CallAttempt } from './call-attempt.js';
import { DispatchError } from './dispatch-error.js';
import { errorMessage } from './error-message.js';
import { isPromiseLike } from './is-promise-like.js';
import { MAX_RETRIES, type RecoveryDecision, type RecoveryStrategy } from './recovery-strategy.js';
import type { Reflection } from './reflector.js';
import type { DispatcherConfig } from './resolve-dispatcher-options.js';
import type { SoftFailure } from './soft-failure.js';

/**
 * The recovery stage of an attempt that ended with a soft error: the reflector looks at the
 * failure, the strategy decides, and the decision is applied: `skip` ends the call with the
 * soft error (saying recovery gave up after retries), `retry` starts the next attempt after
 * its back-off, corrected, and `fail`, a retry past {@link MAX_RETRIES}, an invalid decision or
 * a reflector or strategy that throws fails the batch. Either of them may answer asynchronously.
 *
 * @see RecoveryStrategy
 * @see Reflector
 */
export function recoverAttempt(
  run: CallAttempt,
  recovery: NonNullable<DispatcherConfig['recovery']>,
): void {
  const failure: SoftFailure = {
    kind: run.kind,
    message: run.content,
    call: run.call,
    index: run.index,
    toolName: run.toolName,
    input: run.input,
    attempt: run.attempt,
    ...(run.error === undefined ? {} : { error: run.error }),
  };
  const { strategy } = recovery;
  const token = run.token;
  let reflection: Reflection | PromiseLike<Reflection>;
  try {
    reflection = recovery.reflector.reflect(failure);
  } catch (error) {
    recoveryThrew(run, 'reflector', error);
    return;
  }
  if (isPromiseLike(reflection)) {
    reflection.then(
      (settled) => {
        if (token === run.token) decide(run, strategy, settled);
      },
      (error: unknown) => {
        if (token === run.token) recoveryThrew(run, 'reflector', error);
      },
    );
  } else {
    decide(run, strategy, reflection);
  }
}

function decide(run: CallAttempt, strategy: RecoveryStrategy, reflection: Reflection): void {
  const token = run.token;
  let decision: RecoveryDecision | PromiseLike<RecoveryDecision>;
  try {
    decision = strategy.decide(reflection);
  } catch (error) {
    recoveryThrew(run, `strategy \`${strategy.name}\``, error);
    return;
  }
  if (isPromiseLike(decision)) {
    decision.then(
      (settled) => {
        if (token === run.token) apply(run, strategy, settled);
      },
      (error: unknown) => {
        if (token === run.token) recoveryThrew(run, `strategy \`${strategy.name}\``, error);
      },
    );
  } else {
    apply(run, strategy, decision);
  }
}

function apply(run: CallAttempt, strategy: RecoveryStrategy, decision: RecoveryDecision): void {
  const attempts = run.attempt;
  switch (decision?.action) {
    case 'skip':
      run.finish(
        'error',
        attempts > 1
          ? `Recovery gave up on \`${run.toolName}\` after ${attempts} attempts: ${run.content}`
          : run.content,
      );
      return;
    case 'fail':
      run.hardFail(
        recoveryError(
          run,
          `Recovery strategy \`${strategy.name}\` failed the batch at call \`${run.call.id}\` (\`${run.toolName}\`) after ${attempts} attempt${attempts === 1 ? '' : 's'}${decision.reason === undefined ? '' : `: ${decision.reason}`}; last error: ${run.content}`,
        ),
      );
      return;
    case 'retry':
      retry(run, strategy, decision);
      return;
    default:
      run.hardFail(
        new DispatchError({
          code: 'invalid_config',
          message: `Expected recovery strategy \`${strategy.name}\` to decide { action: 'retry' | 'skip' | 'fail' }, got ${describeValue(decision)}`,
          toolCallId: run.call.id,
          toolName: run.toolName,
          attempts,
        }),
      );
  }
}

function retry(
  run: CallAttempt,
  strategy: RecoveryStrategy,
  decision: Extract<RecoveryDecision, { action: 'retry' }>,
): void {
  const attempts = run.attempt;
  if (attempts > MAX_RETRIES) {
    run.hardFail(
      recoveryError(
        run,
        `Recovery exhausted: \`${run.toolName}\` (call \`${run.call.id}\`) failed ${attempts} attempts (at most ${MAX_RETRIES} retries); last error: ${run.content}`,
      ),
    );
    return;
  }
  const { delayMs, correction } = decision;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0) {
    run.hardFail(
      new DispatchError({
        code: 'invalid_config',
        message: `Expected \`delayMs\` of the retry decided by recovery strategy \`${strategy.name}\` to be a finite number from 0 and up, got ${describeValue(delayMs)}`,
        toolCallId: run.call.id,
        toolName: run.toolName,
        attempts,
      }),
    );
    return;
  }
  run.retry(delayMs, correction);
}

/** The hard error `recovery_exhausted` for this call, caused by what its attempt threw. */
function recoveryError(run: CallAttempt, message: string): DispatchError {
  return new DispatchError({
    code: 'recovery_exhausted',
    message,
    toolCallId: run.call.id,
    toolName: run.toolName,
    attempts: run.attempt,
    ...(run.error === undefined ? {} : { cause: run.error }),
  });
}

function recoveryThrew(run: CallAttempt, what: string, error: unknown): void {
  run.hardFail(
    new DispatchError({
      code: 'recovery_exhausted',
      message: `Recovery ${what} threw at call \`${run.call.id}\` (\`${run.toolName}\`) after ${run.attempt} attempt${run.attempt === 1 ? '' : 's'}: ${errorMessage(error)}`,
      cause: error,
      toolCallId: run.call.id,
      toolName: run.toolName,
      attempts: run.attempt,
    }),
  );
}
