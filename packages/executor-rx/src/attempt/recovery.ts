import { concatMap, type Observable, of, throwError } from 'rxjs';
import type { AttemptAnswer } from '../attempt-answer.js';
import { DispatchError } from '../dispatch-error.js';
import { type RecoveryStep, recoverAttempt } from '../recover-attempt.js';
import type { Attempt } from './attempt.js';

/** How an attempt ends for its call: a final answer, or a retry after a back-off. */
export type Concluded =
  | { readonly action: 'finish'; readonly answer: AttemptAnswer; readonly content: string }
  | (Extract<RecoveryStep, { action: 'retry' }> & { readonly answer: AttemptAnswer });

/** No recovery, or nothing to recover from: the answer is final. */
export function finish(answer: AttemptAnswer): Concluded {
  return { action: 'finish', answer, content: answer.content };
}

/**
 * Stage 8: recovery decides for a soft error (the reflector, then the strategy, in the submitter's
 * async context): finish with the answer, retry after a back-off (possibly corrected), or fail the
 * batch (the Observable's `error`). An effect that may have taken place (`outcome_unknown`, or any
 * answer given after the call's lease was lost) is never retried automatically.
 */
export function recover(attempt: Attempt, answer: AttemptAnswer): Observable<Concluded> {
  const recovery = attempt.batch.config.recovery;
  const unsure = answer.kind === 'outcome_unknown' || attempt.leaseLost !== undefined;
  if (!answer.isError || recovery === undefined || unsure) return of(finish(answer));
  const { call, index, toolName, input } = attempt.prepared;
  const step = recoverAttempt({
    submitter: attempt.place.submitter,
    reflector: recovery.reflector,
    strategy: recovery.strategy,
    failure: {
      kind: answer.kind,
      message: answer.content,
      call,
      index,
      toolName,
      input,
      attempt: attempt.number,
      ...(answer.error === undefined ? {} : { error: answer.error }),
    },
  });
  return step.pipe(concatMap((settled) => concluded(answer, settled)));
}

function concluded(answer: AttemptAnswer, step: RecoveryStep): Observable<Concluded> {
  if (step instanceof DispatchError) return throwError(() => step);
  if (step.action === 'finish') return of({ action: 'finish', answer, content: step.content });
  return of({ ...step, answer });
}
