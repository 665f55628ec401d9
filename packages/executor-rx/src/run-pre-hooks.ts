import { describeValue } from '@toolwaves/core/internal';
import { type AttemptAnswer, softError } from './attempt-answer.js';
import { DispatchError } from './dispatch-error.js';
import type { PreHook, PreHookContext, PreHookDecision } from './dispatch-hooks.js';
import { errorMessage } from './error-message.js';
import { isPromiseLike, type MaybeAsync } from './maybe-async.js';

/** What the pre hooks decided for an attempt. */
export type PreHookVerdict = AttemptAnswer | DispatchError | undefined;

/** Options of {@link runPreHooks}. */
export interface RunPreHooksOptions {
  readonly hooks: readonly PreHook[];
  readonly context: PreHookContext;
  /** Whether the attempt is still wanted; no hook runs once it is not (the answer is then moot). */
  readonly isCurrent: () => boolean;
}

/** The pre-hook stage of an attempt. */
export function runPreHooks(options: RunPreHooksOptions, from = 0): MaybeAsync<PreHookVerdict> {
  const { hooks, context, isCurrent } = options;
  for (let i = from; i < hooks.length; i++) {
    if (!isCurrent()) return undefined;
    let decision: MaybeAsync<PreHookDecision | undefined>;
    try {
      decision = hooks[i]!(context);
    } catch (error) {
      return threw(i, error);
    }
    if (isPromiseLike(decision)) {
      return decision.then(
        (settled) => verdictOf(context, i, settled) ?? runPreHooks(options, i + 1),
        (error: unknown) => threw(i, error),
      );
    }
    const verdict = verdictOf(context, i, decision);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}

function verdictOf(
  context: PreHookContext,
  hook: number,
  decision: PreHookDecision | undefined,
): PreHookVerdict {
  if (decision === undefined || decision?.action === 'allow') return undefined;
  if (decision?.action === 'block')
    return softError('blocked', `Blocked by a pre hook: ${decision.reason}`);
  if (decision?.action === 'abort') {
    const { call, tool, attempt } = context;
    const code = decision.code === 'loop_detected' ? 'loop_detected' : 'aborted';
    return new DispatchError({
      code,
      message:
        code === 'loop_detected'
          ? decision.reason
          : `A pre hook aborted the batch at call \`${call.id}\` (\`${tool.name}\`): ${decision.reason}`,
      toolCallId: call.id,
      toolName: tool.name,
      attempts: attempt,
    });
  }
  return softError(
    'hook_failed',
    `Pre hook ${hook} returned ${describeValue(decision)}, not { action: 'allow' | 'block' | 'abort' }`,
  );
}

function threw(hook: number, error: unknown): AttemptAnswer {
  return softError('hook_failed', `Pre hook ${hook} threw: ${errorMessage(error)}`, error);
}
