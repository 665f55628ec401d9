import { map, type Observable } from 'rxjs';
import { DispatchError } from '../dispatch-error.js';
import { runPreHooks } from '../run-hooks.js';
import { type Answered, answeredEarly, type Staged, type ToolInput } from './answered.js';
import type { Attempt } from './attempt.js';

/**
 * Stage 2: the pre hooks in order, in the submitter's async context: go on (`allow`), a soft
 * error (`block`, or a hook that throws), or the batch's hard error (`abort`: the Observable's
 * `error`). A synchronous hook that cancels the dispatch never gets the tool run: the stop
 * unsubscribes the attempt before the next stage begins.
 */
export function preHooks(attempt: Attempt, input: ToolInput): Observable<Staged<ToolInput>> {
  const { call, index } = attempt.prepared;
  const context = attempt.context;
  const hookContext = {
    call,
    index,
    tool: input.tool,
    input: input.value,
    attempt: attempt.number,
    // Read on demand: the attempt's signal is made only when someone reads it.
    get signal() {
      return context.signal;
    },
  };
  const { preHooks: hooks } = attempt.batch.config;
  return runPreHooks(hooks, hookContext, attempt.place.submitter).pipe(
    map((verdict): ToolInput | Answered => {
      if (verdict === undefined) return input;
      if (verdict instanceof DispatchError) throw verdict;
      return answeredEarly(verdict);
    }),
  );
}
