import type { AttemptInstrument, CoordinationGrant, Tool, ToolContext } from '@toolwaves/core';
import {
  concatMap,
  map,
  Observable,
  race,
  type Subscriber,
  type Subscription,
  type TeardownLogic,
  timer,
} from 'rxjs';
import { type Attempt, AttemptContext } from './attempt.js';
import {
  type AttemptAnswer,
  answerOf,
  lostLeaseAnswer,
  outcomeUnknownAnswer,
  refusedGrantAnswer,
  softError,
  thrownAnswer,
} from './attempt-answer.js';
import { isPromiseLike, type MaybeAsync } from './maybe-async.js';
import { giveBack } from './outliving-tools.js';
import type { ToolExecute } from './prepared-call.js';

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

// Stages 4 and 5 of an attempt: the fleet grant, then the tool, both under `timeoutMs`.
export function grantedRun(attempt: Attempt, input: ToolInput): Observable<Answered> {
  return underTimeout(attempt, fleetGrant(attempt, input));
}

/** 4. The fleet coordinator's grant for the call's accesses, then the tool. */
function fleetGrant(attempt: Attempt, input: ToolInput): Observable<Answered> {
  const coordinator = attempt.batch.config.coordinator;
  if (coordinator === undefined) return runTool(attempt, input, undefined);
  const { call, toolName } = attempt.prepared;
  const waited = (): void => attempt.fleetWaited();
  const granted = new Observable<CoordinationGrant>((subscriber) => {
    attempt.fleetWaitFrom = attempt.now();
    let grant: MaybeAsync<CoordinationGrant>;
    try {
      const { access, exclusive } = attempt.prepared.fleetClaim;
      const signal = attempt.context.signal;
      grant = attempt.place.submitter(() =>
        coordinator.acquire(
          exclusive
            ? { toolCallId: call.id, toolName, access, exclusive, signal }
            : { toolCallId: call.id, toolName, access, signal },
        ),
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

// The tool runs, racing a lost lease; interrupted, it outlives the attempt until it settles.
function runTool(
  attempt: Attempt,
  input: ToolInput,
  grant: CoordinationGrant | undefined,
): Observable<Answered> {
  return new Observable<Answered>((subscriber) =>
    new ToolRun(attempt, grant, subscriber).start(input),
  );
}

/** One run of a tool (a class: its callbacks are made once per run, not per closure). */
class ToolRun {
  #settled = false;
  #output: PromiseLike<unknown> | undefined;
  /** Whether the tool marked its effect committed (with a grant only). */
  #committed: (() => boolean) | undefined;
  /** After a lost lease: the settle timeout, past which the outcome is unknown. */
  #lostWait: Subscription | undefined;

  constructor(
    private readonly attempt: Attempt,
    private readonly grant: CoordinationGrant | undefined,
    private readonly subscriber: Subscriber<Answered>,
  ) {}

  start(input: ToolInput): TeardownLogic {
    const attempt = this.attempt;
    const grant = this.grant;
    const { toolName, givenExecute } = attempt.prepared;
    if (grant?.lost.aborted) {
      giveBack(grant);
      this.subscriber.error(new EarlyAnswer(lostLeaseAnswer(toolName, grant.lost.reason)));
      return undefined;
    }
    // Its `call-start` before the tool runs, once its keys and grant are held (`fleetWaitMs` is
    // known): an observer that must act before a tool runs (a write-ahead journal, an approval
    // UI, a span) can. One that stops the batch on seeing it stops the tool before it starts.
    attempt.emitStart();
    if (this.subscriber.closed) {
      if (grant !== undefined) giveBack(grant);
      return undefined;
    }
    const context = attempt.context;
    if (grant !== undefined) this.#committed = AttemptContext.granted(context, grant.fencingToken);
    const instrument = attempt.instrument;
    attempt.toolStarted = true;
    let output: MaybeAsync<unknown>;
    try {
      if (instrument !== undefined) {
        const { keyWaitMs, fleetWaitMs } = attempt;
        const fencingToken = grant?.fencingToken;
        instrument.granted(
          fencingToken === undefined
            ? { keyWaitMs, fleetWaitMs }
            : { keyWaitMs, fleetWaitMs, fencingToken },
        );
      }
      // In the submitter's async context, whatever call's end let this one start.
      output = attempt.place.submitter(execute, input, context, givenExecute, instrument);
    } catch (error) {
      this.#answered(thrownAnswer(toolName, error));
      return undefined;
    }
    if (!isPromiseLike(output)) {
      this.#answered(answerOf(toolName, output));
      return undefined;
    }
    this.#output = output;
    // Callbacks passed inline, not kept in named fields: nothing named is made per run.
    const onLost = grant === undefined ? undefined : (): void => this.#lost(); // none without a grant
    grant?.lost.addEventListener('abort', onLost!, { once: true });
    output.then(
      (value) => this.#settle(value, false),
      (error: unknown) => this.#settle(error, true),
    );
    return () => {
      grant?.lost.removeEventListener('abort', onLost!);
      this.#lostWait?.unsubscribe();
      this.#outlive();
    };
  }

  #answered(answer: AttemptAnswer): void {
    this.#settled = true;
    if (this.grant !== undefined) giveBack(this.grant);
    this.subscriber.next({ answer, toolRan: true });
    this.subscriber.complete();
  }

  #settle(outcome: unknown, threw: boolean): void {
    if (this.subscriber.closed) return;
    const toolName = this.attempt.prepared.toolName;
    const lost = this.attempt.leaseLost;
    if (lost !== undefined) {
      // Its lease was lost after it committed: its own answer, unless it threw (then unknown).
      this.#answered(
        threw ? outcomeUnknownAnswer(toolName, lost.reason) : answerOf(toolName, outcome),
      );
      return;
    }
    this.#answered(threw ? thrownAnswer(toolName, outcome) : answerOf(toolName, outcome));
  }

  // The grant was lost while the tool ran: it is told to stop. A tool that had already passed a
  // fenced commit (`markCommitted`) has done its effect: its answer is awaited (at most
  // `settleTimeoutMs`) and is the call's. Any other's outcome is unknown, answered at once: it
  // had not committed when the lease was lost, and nothing it does now may count.
  #lost(): void {
    const attempt = this.attempt;
    const reason = this.grant?.lost.reason;
    attempt.leaseLost = { reason };
    AttemptContext.abort(attempt.context, reason ?? new Error('lease lost'));
    const toolName = attempt.prepared.toolName;
    const unknown = (): void => {
      if (this.subscriber.closed) return;
      this.subscriber.next({ answer: outcomeUnknownAnswer(toolName, reason), toolRan: true });
      this.subscriber.complete();
    };
    if (this.#committed?.() !== true) {
      unknown();
      return;
    }
    const { settleTimeoutMs, scheduler } = attempt.batch.config;
    if (Number.isFinite(settleTimeoutMs))
      this.#lostWait = scheduler.schedule(unknown, settleTimeoutMs);
  }

  /** Answered without its tool (timeout, lost lease, stop): the tool outlives the attempt. */
  #outlive(): void {
    if (this.#settled) return;
    const attempt = this.attempt;
    AttemptContext.abort(attempt.context, attempt.batch.failure ?? new Error('stopped'));
    const { call, toolName } = attempt.prepared;
    const hold = attempt.batch.config.outliving.hold({
      node: attempt.prepared.node,
      toolCallId: call.id,
      toolName,
      grant: this.grant,
    });
    this.#output?.then(
      () => hold.settled(),
      () => hold.settled(),
    );
  }
}

/** The tool's `execute` (or the one given with the call), inside the attempt's instrumentation. */
function execute(
  input: ToolInput,
  context: ToolContext,
  givenExecute: ToolExecute | undefined,
  instrument: AttemptInstrument | undefined,
): MaybeAsync<unknown> {
  if (instrument !== undefined) {
    return instrument.run(() => execute(input, context, givenExecute, undefined));
  }
  return givenExecute === undefined
    ? input.tool.execute(input.value, context)
    : givenExecute(input.value, context);
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
      const lost = attempt.leaseLost;
      if (lost !== undefined) {
        // Waiting for a tool whose lease was lost: never a timeout, which recovery may retry.
        const answer = outcomeUnknownAnswer(attempt.prepared.toolName, lost.reason);
        return { answer, toolRan: true };
      }
      const answer = softError('timeout', message);
      if (!attempt.toolStarted) throw new EarlyAnswer(answer);
      return { answer, toolRan: true };
    }),
  );
  return race(work, expired);
}
