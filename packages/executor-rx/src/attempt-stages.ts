import { catchError, concatMap, identity, map, Observable, of, throwError } from 'rxjs';
import type { Attempt } from './attempt.js';
import { type AttemptAnswer, softError, unknownToolAnswer } from './attempt-answer.js';
import { DispatchError } from './dispatch-error.js';
import { type RecoveryStep, recoverAttempt } from './recover-attempt.js';
import { runPostHooks, runPreHooks } from './run-hooks.js';
import { type Answered, EarlyAnswer, grantedRun, type ToolInput } from './run-tool.js';

export type { Answered };

/** How an attempt ends for its call: a final answer, or a retry after a back-off. */
export type Concluded =
  | { readonly action: 'finish'; readonly answer: AttemptAnswer; readonly content: string }
  | (Extract<RecoveryStep, { action: 'retry' }> & { readonly answer: AttemptAnswer });

/** One attempt of one call, stage by stage, as an Observable that emits how it concluded. */
export function attemptStages(attempt: Attempt): Observable<Concluded> {
  // A stage with nothing configured (no hooks, no recovery) is left out of the chain.
  const { preHooks: pre, postHooks: post, recovery } = attempt.batch.config;
  return checked(attempt).pipe(
    pre.length === 0 ? identity : concatMap((input) => preHooks(attempt, input)), // allow, block, abort
    // tools still running from earlier answers; then the fleet grant + tool, under the timeout
    concatMap((input) => keysClear(attempt, () => grantedRun(attempt, input))),
    post.length === 0 // post hooks observe (a throw overrules); then the health record
      ? map((answered) => record(attempt, observed(attempt, answered)))
      : concatMap((answered) =>
          postHooks(attempt, answered).pipe(map((seen) => record(attempt, seen))),
        ),
    catchError((error: unknown) => endedEarly(attempt, error)), // no tool ran: straight to recovery
    recovery === undefined
      ? map(({ answer }): Concluded => ({ action: 'finish', answer, content: answer.content }))
      : concatMap((answered) => recover(attempt, answered.answer)),
  );
}

/** 1. The tool and the validated input (unknown tool, invalid input: soft errors). */
function checked(attempt: Attempt): Observable<ToolInput> {
  const { tool, validation, toolName } = attempt.prepared;
  if (tool === undefined) {
    const names = attempt.batch.config.registry.names();
    return throwError(() => new EarlyAnswer(unknownToolAnswer(toolName, names)));
  }
  if (validation?.ok !== true) {
    return throwError(() => new EarlyAnswer(softError('invalid_input', validation?.message ?? '')));
  }
  return of({ tool, value: validation.value });
}

/** 2. Pre hooks: go on, a soft error (block), or the batch's hard error (abort). */
function preHooks(attempt: Attempt, input: ToolInput): Observable<ToolInput> {
  const { call, index } = attempt.prepared;
  const context = attempt.context;
  const hookContext = {
    call,
    index,
    tool: input.tool,
    input: input.value,
    attempt: attempt.number,
    get signal() {
      return context.signal;
    },
  };
  return runPreHooks(attempt.batch.config.preHooks, hookContext).pipe(
    map((verdict) => {
      if (verdict === undefined) return input;
      throw verdict instanceof DispatchError ? verdict : new EarlyAnswer(verdict);
    }),
  );
}

/** 3. Waits until no tool that outlived its answer holds a conflicting key. */
function keysClear(attempt: Attempt, then: () => Observable<Answered>): Observable<Answered> {
  const outliving = attempt.batch.config.outliving;
  if (outliving.size === 0) return then();
  const node = attempt.prepared.node;
  if (!outliving.blocks(node)) return then();
  const cleared = new Observable<void>((subscriber) =>
    outliving.whenClear(node).subscribe({
      next: (event) => attempt.emit(event),
      complete: () => {
        // The wait was for another call's tool, not part of this attempt: it shows in `waitMs`.
        const now = attempt.now();
        attempt.keyWaitMs += now - attempt.beganAt;
        attempt.beganAt = now;
        subscriber.next();
        subscriber.complete();
      },
    }),
  );
  return cleared.pipe(concatMap(then));
}

/** 6. Post hooks observe the answer; one that throws overrules it. */
function postHooks(attempt: Attempt, answered: Answered): Observable<Answered> {
  const toolOk = observed(attempt, answered).toolOk === true;
  const { call, index, toolName, validation } = attempt.prepared;
  const { answer } = answered;
  return runPostHooks(attempt.batch.config.postHooks, {
    call,
    index,
    toolName,
    input: validation?.ok === true ? validation.value : undefined,
    content: answer.content,
    isError: answer.isError,
    durationMs: attempt.durationMs,
    attempt: attempt.number,
  }).pipe(map((settled) => ({ answer: settled ?? answer, toolRan: true, toolOk })));
}

/** The tool's answer as it came, with its duration (what post hooks and the record see). */
function observed(attempt: Attempt, answered: Answered): Answered {
  attempt.durationMs = attempt.now() - attempt.beganAt;
  return { answer: answered.answer, toolRan: true, toolOk: !answered.answer.isError };
}

/** 7. The health record of an attempt that ran its tool (the tool's own answer counts). */
function record(attempt: Attempt, answered: Answered): Answered {
  attempt.batch.config.health.record({
    toolName: attempt.prepared.toolName,
    ok: answered.toolOk === true,
    durationMs: attempt.durationMs,
  });
  return answered;
}

/** A soft error before the tool ran: its `call-start` now; no post hooks, no health record. */
function endedEarly(attempt: Attempt, error: unknown): Observable<Answered> {
  if (!(error instanceof EarlyAnswer)) return throwError(() => error);
  attempt.durationMs = attempt.now() - attempt.beganAt;
  if (!attempt.open) attempt.emitStart();
  return of({ answer: error.answer, toolRan: false });
}

/** 8. Recovery decides: finish with the answer, retry after a back-off, or fail the batch. */
function recover(attempt: Attempt, answer: AttemptAnswer): Observable<Concluded> {
  const recovery = attempt.batch.config.recovery;
  // An effect that may have taken place is never retried automatically.
  if (!answer.isError || recovery === undefined || answer.kind === 'outcome_unknown') {
    return of({ action: 'finish', answer, content: answer.content });
  }
  const { call, index, toolName, input } = attempt.prepared;
  const step = recoverAttempt({
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
