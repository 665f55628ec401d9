import { describeValue } from '@toolwaves/core/internal';
import {
  catchError,
  concatMap,
  defaultIfEmpty,
  defer,
  filter,
  from,
  map,
  type Observable,
  of,
  take,
} from 'rxjs';
import { type AttemptAnswer, errorMessage, softError } from './attempt-answer.js';
import { DispatchError } from './dispatch-error.js';
import type {
  PostHook,
  PostHookContext,
  PreHook,
  PreHookContext,
  PreHookDecision,
} from './dispatch-hooks.js';
import { fromMaybeAsync, type MaybeAsync } from './maybe-async.js';
import type { SubmitterContext } from './submitter-context.js';

/** What the pre hooks decided for an attempt: go on (`undefined`), a soft or a hard error. */
export type PreHookVerdict = AttemptAnswer | DispatchError | undefined;

/** The pre hooks in order (each in the call's submitter's context), until one blocks or aborts
 * (a hook that throws blocks). */
export function runPreHooks(
  hooks: readonly PreHook[],
  context: PreHookContext,
  submitter: SubmitterContext,
): Observable<PreHookVerdict> {
  return inTurn(
    'Pre',
    hooks,
    (hook) => submitter(hook, context),
    (decision: PreHookDecision | undefined, i) => verdictOf(context, i, decision),
  );
}

/** The post hooks in order (each in the call's submitter's context); the first that throws
 * overrules the answer (`hook_failed`). */
export function runPostHooks(
  hooks: readonly PostHook[],
  context: PostHookContext,
  submitter: SubmitterContext,
): Observable<AttemptAnswer | undefined> {
  return inTurn(
    'Post',
    hooks,
    (hook) => submitter(hook, context),
    () => undefined,
  );
}

// Hooks one after another, each answering now or later, until one has a verdict; one that
// throws is the soft error `hook_failed`. Unsubscribed, no further hook runs.
function inTurn<H, D, V extends PreHookVerdict>(
  side: 'Pre' | 'Post',
  hooks: readonly H[],
  run: (hook: H) => MaybeAsync<D>,
  verdict: (decision: D, hook: number) => V,
): Observable<V | AttemptAnswer | undefined> {
  return from(hooks).pipe(
    concatMap((hook, i) =>
      defer(() => fromMaybeAsync(run(hook))).pipe(
        map((decision): V | AttemptAnswer => verdict(decision, i)),
        catchError((error: unknown) =>
          of(softError('hook_failed', `${side} hook ${i} threw: ${errorMessage(error)}`, error)),
        ),
      ),
    ),
    filter((answer) => answer !== undefined),
    take(1),
    defaultIfEmpty(undefined),
  );
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
