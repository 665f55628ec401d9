import { describeValue } from '@toolwaves/core/internal';
import { catchError, concatMap, defer, map, type Observable, of } from 'rxjs';
import { errorMessage } from './attempt-answer.js';
import { DispatchError } from './dispatch-error.js';
import { fromMaybeAsync } from './maybe-async.js';
import { MAX_RETRIES, type RecoveryDecision, type RecoveryStrategy } from './recovery-strategy.js';
import type { RecoveryCorrection, Reflector } from './reflector.js';
import type { SoftFailure } from './soft-failure.js';
import type { SubmitterContext } from './submitter-context.js';

/** What recovery decided for an attempt that ended with a soft error. */
export type RecoveryStep =
  | { readonly action: 'finish'; readonly content: string }
  | {
      readonly action: 'retry';
      readonly delayMs: number;
      readonly correction: RecoveryCorrection | undefined;
    }
  | DispatchError;

/** Options of {@link recoverAttempt}. */
export interface RecoverAttemptOptions {
  /** The reflector and the strategy run in the call's submitter's async context. */
  readonly submitter: SubmitterContext;
  readonly reflector: Reflector;
  readonly strategy: RecoveryStrategy;
  readonly failure: SoftFailure;
}

/** The recovery stage: the reflector, then the strategy; one that throws fails the batch. */
export function recoverAttempt(options: RecoverAttemptOptions): Observable<RecoveryStep> {
  const { reflector, strategy, failure, submitter } = options;
  const what = `strategy \`${strategy.name}\``;
  return defer(() => fromMaybeAsync(submitter(() => reflector.reflect(failure)))).pipe(
    concatMap((reflection) =>
      defer(() => fromMaybeAsync(submitter(() => strategy.decide(reflection)))).pipe(
        map((decision) => stepOf(strategy, failure, decision)),
        catchError((error: unknown) => of(recoveryThrew(failure, what, error))),
      ),
    ),
    catchError((error: unknown) => of(recoveryThrew(failure, 'reflector', error))),
  );
}

function stepOf(
  strategy: RecoveryStrategy,
  failure: SoftFailure,
  decision: RecoveryDecision,
): RecoveryStep {
  const { attempt: attempts, toolName, call, message } = failure;
  switch (decision?.action) {
    case 'skip':
      return {
        action: 'finish',
        content:
          attempts > 1
            ? `Recovery gave up on \`${toolName}\` after ${attempts} attempts: ${message}`
            : message,
      };
    case 'fail':
      return exhausted(
        failure,
        `Recovery strategy \`${strategy.name}\` failed the batch at call \`${call.id}\` (\`${toolName}\`) after ${attempts} attempt${attempts === 1 ? '' : 's'}${decision.reason === undefined ? '' : `: ${decision.reason}`}; last error: ${message}`,
      );
    case 'retry':
      return retryStep(strategy, failure, decision);
    default:
      return new DispatchError({
        code: 'invalid_config',
        message: `Expected recovery strategy \`${strategy.name}\` to decide { action: 'retry' | 'skip' | 'fail' }, got ${describeValue(decision)}`,
        toolCallId: call.id,
        toolName,
        attempts,
      });
  }
}

function retryStep(
  strategy: RecoveryStrategy,
  failure: SoftFailure,
  decision: Extract<RecoveryDecision, { action: 'retry' }>,
): RecoveryStep {
  const { attempt: attempts, toolName, call } = failure;
  if (attempts > MAX_RETRIES) {
    return exhausted(
      failure,
      `Recovery exhausted: \`${toolName}\` (call \`${call.id}\`) failed ${attempts} attempts (at most ${MAX_RETRIES} retries); last error: ${failure.message}`,
    );
  }
  const { delayMs, correction } = decision;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0) {
    return new DispatchError({
      code: 'invalid_config',
      message: `Expected \`delayMs\` of the retry decided by recovery strategy \`${strategy.name}\` to be a finite number from 0 and up, got ${describeValue(delayMs)}`,
      toolCallId: call.id,
      toolName,
      attempts,
    });
  }
  return { action: 'retry', delayMs, correction };
}

/** The hard error `recovery_exhausted` for this call, caused by what its attempt threw. */
function exhausted(failure: SoftFailure, message: string): DispatchError {
  return new DispatchError({
    code: 'recovery_exhausted',
    message,
    toolCallId: failure.call.id,
    toolName: failure.toolName,
    attempts: failure.attempt,
    ...(failure.error === undefined ? {} : { cause: failure.error }),
  });
}

function recoveryThrew(failure: SoftFailure, what: string, error: unknown): DispatchError {
  const { call, toolName, attempt } = failure;
  return new DispatchError({
    code: 'recovery_exhausted',
    message: `Recovery ${what} threw at call \`${call.id}\` (\`${toolName}\`) after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${errorMessage(error)}`,
    cause: error,
    toolCallId: call.id,
    toolName,
    attempts: attempt,
  });
}
