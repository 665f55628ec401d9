import type { CallAttempt } from './call-attempt.js';
import { errorMessage } from './error-message.js';
import { isPromiseLike } from './is-promise-like.js';

/**
 * The post-hook stage of an attempt whose tool ran: runs the dispatcher's post hooks in order
 * from hook `from` (an async hook is awaited before the next one), then records the tool's
 * health. A hook that throws turns the answer into a `hook_failed` soft error and skips the
 * hooks after it; the health record still counts the tool's own answer (`toolOk`).
 *
 * @see executeAttempt for the stage before.
 */
export function runPostHooks(run: CallAttempt, from: number, toolOk: boolean): void {
  const hooks = run.batch.config.postHooks;
  for (let i = from; i < hooks.length; i++) {
    let done: void | PromiseLike<void>;
    try {
      done = hooks[i]!({
        call: run.call,
        index: run.index,
        toolName: run.toolName,
        input: run.value,
        content: run.content,
        isError: run.isError,
        durationMs: run.durationMs,
        attempt: run.attempt,
      });
    } catch (error) {
      postHookThrew(run, i, error);
      run.record(toolOk);
      return;
    }
    if (isPromiseLike(done)) {
      const token = run.token;
      done.then(
        () => {
          if (token === run.token) runPostHooks(run, i + 1, toolOk);
        },
        (error: unknown) => {
          if (token !== run.token) return;
          postHookThrew(run, i, error);
          run.record(toolOk);
        },
      );
      return;
    }
  }
  run.record(toolOk);
}

function postHookThrew(run: CallAttempt, hook: number, error: unknown): void {
  run.overrule('hook_failed', `Post hook ${hook} threw: ${errorMessage(error)}`, error);
}
