import { catchError, concatMap, map, Observable, of, throwError } from 'rxjs';
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
  const { preHooks: pre, postHooks: post, recovery, coordinator, timeoutMs } = attempt.batch.config;
  const input = checked(attempt); // the tool and its input, or an early answer (a soft error)
  const ran =
    input instanceof EarlyAnswer
      ? throwError(() => input)
      : pre.length === 0 // pre hooks: allow, block, abort; then keys clear, fleet grant, tool
        ? keysClearRun(attempt, input)
        : preHooks(attempt, input).pipe(concatMap((allowed) => keysClearRun(attempt, allowed)));
  // Nothing around the tool (no hooks, recovery, fleet grant or timeout): no stage answers early,
  // and the tool's answer, recorded, is final: one stage. Else a stage not configured is left out.
  const bare = pre.length + post.length === 0 && !recovery && !coordinator && !timeoutMs;
  if (bare && !(input instanceof EarlyAnswer)) {
    return ran.pipe(map((answered) => finish(record(attempt, observed(attempt, answered)))));
  }
  return ran.pipe(
    post.length === 0 // post hooks observe (a throw overrules); then the health record
      ? map((answered) => record(attempt, observed(attempt, answered)))
      : concatMap((answered) =>
          postHooks(attempt, answered).pipe(map((seen) => record(attempt, seen))),
        ),
    catchError((error: unknown) => endedEarly(attempt, error)), // no tool ran: straight to recovery
    recovery === undefined
      ? map(finish)
      : concatMap((answered) => recover(attempt, answered.answer)),
  );
}

/** 1. The tool and the validated input, or the soft error of an unknown tool or invalid input. */
function checked(attempt: Attempt): ToolInput | EarlyAnswer {
  const { tool, validation, toolName } = attempt.prepared;
  if (tool === undefined) {
    return new EarlyAnswer(unknownToolAnswer(toolName, attempt.batch.config.registry.names()));
  }
  if (validation?.ok !== true) {
    return new EarlyAnswer(softError('invalid_input', validation?.message ?? ''));
  }
  return { tool, value: validation.value };
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
  return runPreHooks(attempt.batch.config.preHooks, hookContext, attempt.place.submitter).pipe(
    map((verdict) => {
      if (verdict === undefined) return input;
      throw verdict instanceof DispatchError ? verdict : new EarlyAnswer(verdict);
    }),
  );
}

// 3. Waits until no tool that outlived its answer holds a conflicting key; then the fleet grant
// and the tool, under the timeout (4, 5).
function keysClearRun(attempt: Attempt, input: ToolInput): Observable<Answered> {
  const outliving = attempt.batch.config.outliving;
  const node = outliving.size === 0 ? undefined : attempt.prepared.node;
  if (node === undefined || !outliving.blocks(node)) return grantedRun(attempt, input);
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
  return cleared.pipe(concatMap(() => grantedRun(attempt, input)));
}

/** 6. Post hooks observe the answer; one that throws overrules it. */
function postHooks(attempt: Attempt, answered: Answered): Observable<Answered> {
  const toolOk = observed(attempt, answered).toolOk === true;
  const { call, index, toolName, validation } = attempt.prepared;
  const { answer } = answered;
  return runPostHooks(
    attempt.batch.config.postHooks,
    {
      call,
      index,
      toolName,
      input: validation?.ok === true ? validation.value : undefined,
      content: answer.content,
      isError: answer.isError,
      durationMs: attempt.durationMs,
      attempt: attempt.number,
    },
    attempt.place.submitter,
  ).pipe(map((settled) => ({ answer: settled ?? answer, toolRan: true, toolOk })));
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

/** No recovery: the answer is final. */
function finish({ answer }: Answered): Concluded {
  return { action: 'finish', answer, content: answer.content };
}

/** 8. Recovery decides: finish with the answer, retry after a back-off, or fail the batch. */
function recover(attempt: Attempt, answer: AttemptAnswer): Observable<Concluded> {
  const recovery = attempt.batch.config.recovery;
  // An effect that may have taken place is never retried automatically (nor is a tool's answer
  // given after its lease was lost: it had committed its effect).
  const unsure = answer.kind === 'outcome_unknown' || attempt.leaseLost !== undefined;
  if (!answer.isError || recovery === undefined || unsure) {
    return of({ action: 'finish', answer, content: answer.content });
  }
  const { call, index, toolName, input } = attempt.prepared;
  const step = recoverAttempt({
    submitter: attempt.place.submitter,
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
