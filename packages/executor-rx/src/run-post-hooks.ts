import { type AttemptAnswer, softError } from './attempt-answer.js';
import type { PostHook, PostHookContext } from './dispatch-hooks.js';
import { errorMessage } from './error-message.js';
import { isPromiseLike, type MaybeAsync } from './maybe-async.js';

/** Options of {@link runPostHooks}. */
export interface RunPostHooksOptions {
  readonly hooks: readonly PostHook[];
  readonly context: PostHookContext;
  /** Whether the attempt is still wanted; no hook runs once it is not. */
  readonly isCurrent: () => boolean;
}

/** The post-hook stage of an attempt whose tool ran. */
export function runPostHooks(
  options: RunPostHooksOptions,
  from = 0,
): MaybeAsync<AttemptAnswer | undefined> {
  const { hooks, context, isCurrent } = options;
  for (let i = from; i < hooks.length; i++) {
    if (!isCurrent()) return undefined;
    let done: MaybeAsync<void>;
    try {
      done = hooks[i]!(context);
    } catch (error) {
      return threw(i, error);
    }
    if (isPromiseLike(done)) {
      return done.then(
        () => runPostHooks(options, i + 1),
        (error: unknown) => threw(i, error),
      );
    }
  }
  return undefined;
}

function threw(hook: number, error: unknown): AttemptAnswer {
  return softError('hook_failed', `Post hook ${hook} threw: ${errorMessage(error)}`, error);
}
