import { map, type Observable } from 'rxjs';
import { runPostHooks } from '../run-hooks.js';
import type { Answered } from './answered.js';
import type { Attempt } from './attempt.js';

/**
 * Stage 6: the post hooks observe the answer of a tool that ran (the input, the content,
 * `isError`, the duration, the attempt), in the submitter's async context; what they return is
 * ignored, and one that throws overrules the answer (`hook_failed`). The tool's own outcome stays
 * what the health record counts.
 */
export function postHooks(attempt: Attempt, answered: Answered): Observable<Answered> {
  const { call, index, toolName, validation } = attempt.prepared;
  const { answer } = answered;
  const context = {
    call,
    index,
    toolName,
    input: validation?.ok === true ? validation.value : undefined,
    content: answer.content,
    isError: answer.isError,
    durationMs: attempt.durationMs,
    attempt: attempt.number,
  };
  const { postHooks: hooks } = attempt.batch.config;
  return runPostHooks(hooks, context, attempt.place.submitter).pipe(
    map(
      (overruled): Answered =>
        overruled === undefined ? answered : { ...answered, answer: overruled },
    ),
  );
}

/** Stage 7: the health record of an attempt that ran its tool (the tool's own answer counts). */
export function recordHealth(attempt: Attempt, answered: Answered): Answered {
  attempt.batch.config.health.record({
    toolName: attempt.prepared.toolName,
    ok: answered.toolOk === true,
    durationMs: attempt.durationMs,
  });
  return answered;
}
