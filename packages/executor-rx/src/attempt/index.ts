import {
  concatMap,
  identity,
  isObservable,
  map,
  type Observable,
  type OperatorFunction,
  of,
} from 'rxjs';
import { type Answered, isAnswered, type Staged } from './answered.js';
import type { Attempt } from './attempt.js';
import { executeTool } from './execute-tool.js';
import { fleetGrant } from './fleet-grant.js';
import { keysClear } from './keys-clear.js';
import { postHooks, recordHealth } from './post-hooks.js';
import { preHooks } from './pre-hooks.js';
import { type Concluded, finish, recover } from './recovery.js';
import { underTimeout } from './under-timeout.js';
import { validate } from './validate.js';

export { Attempt, startAttempt } from './attempt.js';
export { AttemptContext } from './attempt-context.js';
export type { Concluded } from './recovery.js';

/**
 * One attempt of one call, stage by stage, as an Observable that emits how it concluded, the
 * same in every mode. Each stage is in its own file of this folder, in this order:
 *
 * 1. `validate.ts`      the tool and its input (unknown tool, invalid input: an answer);
 * 2. `pre-hooks.ts`     allow, block (an answer) or abort (the batch's hard error);
 * 3. `keys-clear.ts`    wait for tools of this dispatcher that outlived their answer;
 * 4. `fleet-grant.ts`   the coordinator's grant (refused or lost: an answer);        } under
 * 5. `execute-tool.ts`  `call-start`, then the tool; a lost lease, the tool outliving; } `timeoutMs`
 * 6. `post-hooks.ts`    the post hooks observe a tool's answer (a throw overrules it);
 * 7. `post-hooks.ts`    the health record of a tool that ran;
 * 8. `recovery.ts`      finish, retry after a back-off, or fail the batch.
 *
 * An answer that comes before the tool ran is a value the tool stages pass on (`Staged`); a hard
 * error is the Observable's `error`. A stage that is not configured is left out. The attempt's
 * timings are written by `Attempt` alone, as the stages report to it.
 */
export function attemptStages(attempt: Attempt): Observable<Concluded> {
  const { preHooks: pre, postHooks: post, recovery } = attempt.batch.config;
  return of(validate(attempt)).pipe(
    pre.length === 0 ? identity : unlessAnswered((input) => preHooks(attempt, input)),
    unlessAnswered((input) => keysClear(attempt, input)),
    unlessAnswered((input) =>
      underTimeout(
        attempt,
        lifted(fleetGrant(attempt, input)).pipe(
          unlessAnswered((granted) => executeTool(attempt, granted)),
        ),
      ),
    ),
    map((answered) => arrived(attempt, answered)),
    post.length === 0
      ? identity
      : concatMap((answered) => (answered.toolRan ? postHooks(attempt, answered) : of(answered))),
    map((answered) => (answered.toolRan ? recordHealth(attempt, answered) : answered)),
    recovery === undefined
      ? map((answered) => finish(answered.answer))
      : concatMap((answered) => recover(attempt, answered.answer)),
  );
}

/** A stage that needs the work so far; an answer goes past it untouched. */
function unlessAnswered<T extends object, R extends object>(
  stage: (work: T) => Observable<Staged<R>> | Staged<R>,
): OperatorFunction<Staged<T>, Staged<R>> {
  return concatMap((staged) => (isAnswered(staged) ? of(staged) : lifted(stage(staged))));
}

/** A stage's result as an Observable (a stage with nothing to wait for hands on a value). */
function lifted<T>(result: Observable<T> | T): Observable<T> {
  return isObservable(result) ? result : of(result);
}

/** The attempt's answer came: its duration; an answer before its tool ran gets its `call-start`. */
function arrived(attempt: Attempt, answered: Answered): Answered {
  attempt.answered();
  if (!answered.toolRan && !attempt.open) attempt.emitStart();
  return answered;
}
