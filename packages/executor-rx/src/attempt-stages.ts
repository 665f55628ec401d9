import type { CoordinationGrant, Tool } from '@toolwaves/core';
import { catchError, concatMap, map, Observable, of, race, tap, throwError, timer } from 'rxjs';
import type { Attempt } from './attempt.js';
import {
  type AttemptAnswer,
  answerOf,
  lostLeaseAnswer,
  outcomeUnknownAnswer,
  refusedGrantAnswer,
  softError,
  thrownAnswer,
  unknownToolAnswer,
} from './attempt-answer.js';
import { AttemptContext } from './attempt-context.js';
import { DispatchError } from './dispatch-error.js';
import { fromMaybeAsync, isPromiseLike, type MaybeAsync } from './maybe-async.js';
import { giveBack } from './outliving-tools.js';
import { type RecoveryStep, recoverAttempt } from './recover-attempt.js';
import { runPostHooks } from './run-post-hooks.js';
import { runPreHooks } from './run-pre-hooks.js';

/** An attempt's answer, and whether its tool ran (then post hooks and the health record see it). */
export interface Answered {
  readonly answer: AttemptAnswer;
  readonly toolRan: boolean;
  /** The tool's own answer was not an error (whatever the post hooks do), for the health record. */
  readonly toolOk?: boolean;
}

/** How an attempt ends for its call: a final answer, or a retry after a back-off. */
export type Concluded =
  | { readonly action: 'finish'; readonly answer: AttemptAnswer; readonly content: string }
  | (Extract<RecoveryStep, { action: 'retry' }> & { readonly answer: AttemptAnswer });

/** A soft error before the tool ran, on its way past the stages that need a tool. */
class EarlyAnswer {
  constructor(readonly answer: AttemptAnswer) {}
}

/**
 * One attempt of one call, stage by stage, as an Observable that emits how it concluded (or
 * errors with the batch's hard error). The call's events go out through the attempt as they
 * happen. Every stage may answer now or later; a synchronous pipeline stays synchronous.
 * Unsubscribing (a stop, a timeout) ends whatever stage is running: a grant that arrives after
 * is given back, a tool still running outlives the attempt.
 *
 * @example
 * ```ts
 * attemptStages(attempt).subscribe((concluded) => concluded.action); // 'finish' | 'retry'
 * ```
 * @see runCall which runs the attempts of a call.
 */
export function attemptStages(attempt: Attempt): Observable<Concluded> {
  return checked(attempt).pipe(
    concatMap((input) => preHooks(attempt, input)), // allow, block (soft), abort (hard)
    concatMap((input) => keysClear(attempt, input)), // tools still running from earlier answers
    concatMap((input) => underTimeout(attempt, fleetGrant(attempt, input))), // timeout spans both
    concatMap((answered) => postHooks(attempt, answered)), // they observe; a throw overrules
    tap((answered) => record(attempt, answered)), // the health record
    catchError((error: unknown) => endedEarly(attempt, error)), // no tool ran: straight to recovery
    concatMap((answered) => recover(attempt, answered.answer)),
  );
}

/** 1. The tool and the validated input (unknown tool, invalid input: soft errors). */
function checked(attempt: Attempt): Observable<{ tool: Tool; value: unknown }> {
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

type Input = { tool: Tool; value: unknown };

/** 2. Pre hooks: go on, a soft error (block), or the batch's hard error (abort). */
function preHooks(attempt: Attempt, input: Input): Observable<Input> {
  const hooks = attempt.batch.config.preHooks;
  if (hooks.length === 0) return of(input);
  const { call, index } = attempt.prepared;
  const context = attempt.context;
  return new Observable<Input>((subscriber) => {
    const verdict = runPreHooks({
      hooks,
      context: {
        call,
        index,
        tool: input.tool,
        input: input.value,
        attempt: attempt.number,
        get signal() {
          return context.signal;
        },
      },
      isCurrent: () => !subscriber.closed,
    });
    return fromMaybeAsync(verdict).subscribe({
      next: (settled) => {
        if (settled === undefined) subscriber.next(input);
        else if (settled instanceof DispatchError) subscriber.error(settled);
        else subscriber.error(new EarlyAnswer(settled));
      },
      complete: () => subscriber.complete(),
    });
  });
}

/** 3. Waits until no tool that outlived its answer holds a conflicting key. */
function keysClear(attempt: Attempt, input: Input): Observable<Input> {
  const outliving = attempt.batch.config.outliving;
  if (outliving.size === 0) return of(input);
  const node = attempt.prepared.node;
  if (!outliving.blocks(node)) return of(input);
  return new Observable<Input>((subscriber) =>
    outliving.whenClear(node).subscribe({
      next: (event) => attempt.emit(event),
      complete: () => {
        // The wait was for another call's tool, not part of this attempt: it shows in `waitMs`.
        const now = attempt.now();
        attempt.keyWaitMs += now - attempt.beganAt;
        attempt.beganAt = now;
        subscriber.next(input);
        subscriber.complete();
      },
    }),
  );
}

/** 4. The fleet coordinator's grant for the call's accesses, then the tool. */
function fleetGrant(attempt: Attempt, input: Input): Observable<Answered> {
  const coordinator = attempt.batch.config.coordinator;
  if (coordinator === undefined) return runTool(attempt, input, undefined);
  const { call, toolName } = attempt.prepared;
  attempt.fleetWaitFrom = attempt.now();
  const waited = (): void => attempt.fleetWaited();
  const granted = new Observable<CoordinationGrant>((subscriber) => {
    let grant: MaybeAsync<CoordinationGrant>;
    try {
      const { access, exclusive } = attempt.prepared.fleetRequest;
      const signal = attempt.context.signal;
      grant = coordinator.acquire(
        exclusive
          ? { toolCallId: call.id, toolName, access, exclusive, signal }
          : { toolCallId: call.id, toolName, access, signal },
      );
    } catch (error) {
      grant = Promise.reject(error);
    }
    const given = (value: CoordinationGrant): void => {
      if (subscriber.closed) {
        giveBack(value); // came too late: the tool never runs with it
        return;
      }
      waited();
      subscriber.next(value);
      subscriber.complete();
    };
    if (!isPromiseLike(grant)) given(grant);
    else
      grant.then(given, (error: unknown) => {
        waited();
        subscriber.error(new EarlyAnswer(refusedGrantAnswer(toolName, error)));
      });
    return undefined;
  });
  return granted.pipe(concatMap((grant) => runTool(attempt, input, grant)));
}

/**
 * 5. The tool runs, racing a lost lease. Answered on time, its grant is given back when it
 * settles; interrupted (timeout, lost lease, stop), it outlives the attempt with its keys and
 * its grant until it settles.
 */
function runTool(
  attempt: Attempt,
  input: Input,
  grant: CoordinationGrant | undefined,
): Observable<Answered> {
  return new Observable<Answered>((subscriber) => {
    const { toolName, givenExecute, call } = attempt.prepared;
    if (grant?.lost.aborted) {
      giveBack(grant);
      subscriber.error(new EarlyAnswer(lostLeaseAnswer(toolName, grant.lost.reason)));
      return undefined;
    }
    const context = attempt.context;
    AttemptContext.fence(context, grant?.fencingToken);
    const instrument = attempt.instrument;
    if (instrument !== undefined) {
      const { keyWaitMs, fleetWaitMs } = attempt;
      const fencingToken = grant?.fencingToken;
      instrument.granted(
        fencingToken === undefined
          ? { keyWaitMs, fleetWaitMs }
          : { keyWaitMs, fleetWaitMs, fencingToken },
      );
    }
    const execute = (): MaybeAsync<unknown> =>
      givenExecute === undefined
        ? input.tool.execute(input.value, context)
        : givenExecute(input.value, context);
    let settled = false;
    const answered = (answer: AttemptAnswer): void => {
      settled = true;
      if (grant !== undefined) giveBack(grant);
      subscriber.next({ answer, toolRan: true });
      subscriber.complete();
    };
    attempt.toolStarted = true;
    let output: MaybeAsync<unknown>;
    try {
      output = instrument === undefined ? execute() : instrument.run(execute);
    } catch (error) {
      attempt.emitStart();
      answered(thrownAnswer(toolName, error));
      return undefined;
    }
    // Its `call-start` once the tool has started: someone who stops listening on seeing it
    // stops a running tool (its signal aborts), never one that was about to start.
    attempt.emitStart();
    if (!isPromiseLike(output)) {
      answered(answerOf(toolName, output));
      return undefined;
    }
    const onLost = (): void => {
      const reason = grant?.lost.reason ?? new Error('lease lost');
      AttemptContext.abort(context, reason);
      subscriber.next({
        answer: outcomeUnknownAnswer(toolName, grant?.lost.reason),
        toolRan: true,
      });
      subscriber.complete();
    };
    grant?.lost.addEventListener('abort', onLost, { once: true });
    output.then(
      (value) => {
        if (!subscriber.closed) answered(answerOf(toolName, value));
      },
      (error: unknown) => {
        if (!subscriber.closed) answered(thrownAnswer(toolName, error));
      },
    );
    return () => {
      grant?.lost.removeEventListener('abort', onLost);
      if (settled) return;
      // Answered without its tool (timeout, lost lease, stop): the tool outlives the attempt.
      AttemptContext.abort(context, attempt.batch.failure ?? new Error('stopped'));
      const hold = attempt.batch.config.outliving.hold({
        node: attempt.prepared.node,
        toolCallId: call.id,
        toolName,
        grant,
      });
      const done = (): void => hold.settled();
      output.then(done, done);
    };
  });
}

/** The attempt's `timeoutMs` over the grant and the tool: past it, a soft error. */
function underTimeout(attempt: Attempt, work: Observable<Answered>): Observable<Answered> {
  const { timeoutMs, scheduler } = attempt.batch.config;
  if (timeoutMs === undefined) return work;
  const expired = timer(timeoutMs, scheduler).pipe(
    map((): Answered => {
      const message = `Tool \`${attempt.prepared.toolName}\` timed out after ${timeoutMs} ms`;
      const reason = new Error(message);
      reason.name = 'TimeoutError';
      // Aborted before the race unsubscribes the work: the tool and the grant request see why.
      AttemptContext.abort(attempt.context, reason);
      attempt.fleetWaited();
      const answer = softError('timeout', message);
      if (!attempt.toolStarted) throw new EarlyAnswer(answer);
      return { answer, toolRan: true };
    }),
  );
  return race(work, expired);
}

/** 6. Post hooks observe the answer; one that throws overrules it. */
function postHooks(attempt: Attempt, answered: Answered): Observable<Answered> {
  attempt.durationMs = attempt.now() - attempt.beganAt;
  const hooks = attempt.batch.config.postHooks;
  const toolOk = !answered.answer.isError;
  if (hooks.length === 0) return of({ ...answered, toolOk });
  const { call, index, toolName, validation } = attempt.prepared;
  const { answer } = answered;
  return new Observable<Answered>((subscriber) => {
    const overrule = runPostHooks({
      hooks,
      context: {
        call,
        index,
        toolName,
        input: validation?.ok === true ? validation.value : undefined,
        content: answer.content,
        isError: answer.isError,
        durationMs: attempt.durationMs,
        attempt: attempt.number,
      },
      isCurrent: () => !subscriber.closed,
    });
    return fromMaybeAsync(overrule)
      .pipe(map((settled) => ({ answer: settled ?? answer, toolRan: true, toolOk })))
      .subscribe(subscriber);
  });
}

/** 7. The health record of an attempt that ran its tool (the tool's own answer counts). */
function record(attempt: Attempt, answered: Answered): void {
  attempt.batch.config.health.record({
    toolName: attempt.prepared.toolName,
    ok: answered.toolOk === true,
    durationMs: attempt.durationMs,
  });
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
  return fromMaybeAsync(step).pipe(concatMap((settled) => concluded(answer, settled)));
}

function concluded(answer: AttemptAnswer, step: RecoveryStep): Observable<Concluded> {
  if (step instanceof DispatchError) return throwError(() => step);
  if (step.action === 'finish') return of({ action: 'finish', answer, content: step.content });
  return of({ ...step, answer });
}
