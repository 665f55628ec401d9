import { describeValue } from '@toolwaves/core';
import type { CallAttempt } from './call-attempt.js';
import { DispatchError } from './dispatch-error.js';
import type { PreHookDecision } from './dispatch-hooks.js';
import { errorMessage } from './error-message.js';
import { executeAttempt } from './execute-attempt.js';
import { isPromiseLike } from './is-promise-like.js';

/**
 * The pre-hook stage of an attempt: runs the dispatcher's pre hooks in order from hook `from`
 * (an async hook is awaited before the next one), then executes the tool. A `block`, a hook
 * that throws or answers something that is not a decision ends the attempt as a soft error; an
 * `abort` fails the batch.
 *
 * @see executeAttempt for the next stage.
 */
export function runPreHooks(run: CallAttempt, from: number): void {
  const hooks = run.batch.config.preHooks;
  for (let i = from; i < hooks.length; i++) {
    let decision: PreHookDecision | undefined | PromiseLike<PreHookDecision | undefined>;
    try {
      decision = hooks[i]!({
        call: run.call,
        index: run.index,
        tool: run.tool!,
        input: run.value,
        attempt: run.attempt,
        signal: run.signal(),
      });
    } catch (error) {
      preHookThrew(run, i, error);
      return;
    }
    if (isPromiseLike(decision)) {
      const token = run.token;
      decision.then(
        (settled) => {
          if (token === run.token && applyPreDecision(run, i, settled)) runPreHooks(run, i + 1);
        },
        (error: unknown) => {
          if (token === run.token) preHookThrew(run, i, error);
        },
      );
      return;
    }
    if (!applyPreDecision(run, i, decision)) return;
  }
  executeAttempt(run);
}

/** Applies a pre hook's decision; `true` when the call may go on. */
function applyPreDecision(
  run: CallAttempt,
  hook: number,
  decision: PreHookDecision | undefined,
): boolean {
  if (decision === undefined || decision?.action === 'allow') return true;
  if (decision?.action === 'block') {
    run.softFail('blocked', `Blocked by a pre hook: ${decision.reason}`);
    return false;
  }
  if (decision?.action === 'abort') {
    const code = decision.code === 'loop_detected' ? 'loop_detected' : 'aborted';
    run.hardFail(
      new DispatchError({
        code,
        message:
          code === 'loop_detected'
            ? decision.reason
            : `A pre hook aborted the batch at call \`${run.call.id}\` (\`${run.toolName}\`): ${decision.reason}`,
        toolCallId: run.call.id,
        toolName: run.toolName,
        attempts: run.attempt,
      }),
    );
    return false;
  }
  run.softFail(
    'hook_failed',
    `Pre hook ${hook} returned ${describeValue(decision)}, not { action: 'allow' | 'block' | 'abort' }`,
  );
  return false;
}

function preHookThrew(run: CallAttempt, hook: number, error: unknown): void {
  run.softFail('hook_failed', `Pre hook ${hook} threw: ${errorMessage(error)}`, error);
}
