import type { CoordinationGrant, Tool } from '@toolwaves/core';
import { concatMap, map, Observable, race, timer } from 'rxjs';
import type { Attempt } from './attempt.js';
import {
  type AttemptAnswer,
  answerOf,
  lostLeaseAnswer,
  outcomeUnknownAnswer,
  refusedGrantAnswer,
  softError,
  thrownAnswer,
} from './attempt-answer.js';
import { AttemptContext } from './attempt-context.js';
import { isPromiseLike, type MaybeAsync } from './maybe-async.js';
import { giveBack } from './outliving-tools.js';

/** An attempt's answer, and whether its tool ran (then post hooks and the health record see it). */
export interface Answered {
  readonly answer: AttemptAnswer;
  readonly toolRan: boolean;
  /** The tool's own answer was not an error (whatever the post hooks do), for the health record. */
  readonly toolOk?: boolean;
}

/** A soft error before the tool ran, on its way past the stages that need a tool. */
export class EarlyAnswer {
  constructor(readonly answer: AttemptAnswer) {}
}

/** The tool to run and its validated input. */
export interface ToolInput {
  readonly tool: Tool;
  readonly value: unknown;
}

/**
 * Stages 4 and 5 of an attempt: the fleet coordinator's grant for the call's accesses, then
 * the tool, both under the attempt's `timeoutMs` (the wait for the grant counts in it). A soft
 * error before the tool ran (refused grant, lost in transit, timed out waiting) is an
 * {@link EarlyAnswer} error.
 *
 * @example
 * ```ts
 * checked(attempt).pipe(concatMap((input) => grantedRun(attempt, input)));
 * ```
 */
export function grantedRun(attempt: Attempt, input: ToolInput): Observable<Answered> {
  return underTimeout(attempt, fleetGrant(attempt, input));
}

/** 4. The fleet coordinator's grant for the call's accesses, then the tool. */
function fleetGrant(attempt: Attempt, input: ToolInput): Observable<Answered> {
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
  input: ToolInput,
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
