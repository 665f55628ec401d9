import { map, type Observable, race, timer } from 'rxjs';
import { outcomeUnknownAnswer, softError } from '../attempt-answer.js';
import { type Answered, answeredEarly, toolAnswered } from './answered.js';
import type { Attempt } from './attempt.js';
import { AttemptContext } from './attempt-context.js';

/**
 * Stages 4 and 5 under the attempt's `timeoutMs`: past it, the attempt's signal aborts with an
 * error named `TimeoutError` (the tool and the grant request see why), and the attempt is the
 * soft error `timeout` (a tool still running outlives it). A tool whose lease was lost and whose
 * answer is awaited is `outcome_unknown` instead: a timeout may be retried, it may not.
 */
export function underTimeout(attempt: Attempt, work: Observable<Answered>): Observable<Answered> {
  const { timeoutMs, scheduler } = attempt.batch.config;
  if (timeoutMs === undefined) return work;
  const expired = timer(timeoutMs, scheduler).pipe(
    map((): Answered => {
      const toolName = attempt.prepared.toolName;
      const message = `Tool \`${toolName}\` timed out after ${timeoutMs} ms`;
      const reason = new Error(message);
      reason.name = 'TimeoutError';
      // Aborted before the race unsubscribes the work.
      AttemptContext.abort(attempt.context, reason);
      attempt.fleetAnswered();
      const lost = attempt.leaseLost;
      if (lost !== undefined) return toolAnswered(outcomeUnknownAnswer(toolName, lost.reason));
      const answer = softError('timeout', message);
      return attempt.toolStarted ? { answer, toolRan: true } : answeredEarly(answer);
    }),
  );
  return race(work, expired);
}
