import type { AttemptInstrument, CoordinationGrant, ToolContext } from '@toolwaves/core';
import {
  Observable,
  type Subscriber,
  type Subscription,
  type TeardownLogic,
  type Unsubscribable,
} from 'rxjs';
import {
  type AttemptAnswer,
  answerOf,
  outcomeUnknownAnswer,
  thrownAnswer,
} from '../attempt-answer.js';
import { isPromiseLike, type MaybeAsync } from '../maybe-async.js';
import { giveBack } from '../outliving-tools.js';
import type { ToolExecute } from '../prepared-call.js';
import { type Answered, type Granted, type ToolInput, toolAnswered } from './answered.js';
import type { Attempt } from './attempt.js';
import { AttemptContext } from './attempt-context.js';

/**
 * Stage 5: the attempt's `call-start`, then the tool runs (inside the instrumentation's `run`, in
 * the submitter's async context) with the attempt's own signal, racing a lost lease; stopped
 * (timeout, cancellation, a lost lease), a tool still running outlives the attempt until it
 * settles, holding its keys and its grant.
 */
export function executeTool(attempt: Attempt, granted: Granted): Observable<Answered> {
  return new Observable<Answered>((subscriber) =>
    new ToolRun(attempt, granted.grant, subscriber).start(granted),
  );
}

/** One run of a tool (a class: its callbacks are made once per run, not per closure). */
class ToolRun implements Unsubscribable {
  #settled = false;
  #output: PromiseLike<unknown> | undefined;
  /** Whether the tool marked its effect committed (with a grant only). */
  #committed: (() => boolean) | undefined;
  /** After a lost lease: the settle timeout, past which the outcome is unknown. */
  #lostWait: Subscription | undefined;
  /** Listens for the grant's loss while the tool runs (with a grant only). */
  #onLost: (() => void) | undefined;

  constructor(
    private readonly attempt: Attempt,
    private readonly grant: CoordinationGrant | undefined,
    private readonly subscriber: Subscriber<Answered>,
  ) {}

  start(input: ToolInput): TeardownLogic {
    const attempt = this.attempt;
    const grant = this.grant;
    const { toolName, givenExecute } = attempt.prepared;
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
    if (grant !== undefined) {
      const onLost = (): void => this.#lost(); // none without a grant
      this.#onLost = onLost;
      grant.lost.addEventListener('abort', onLost, { once: true });
    }
    output.then(
      (value) => this.#settle(value, false),
      (error: unknown) => this.#settle(error, true),
    );
    // The run is its own teardown (no closure made per run).
    return this;
  }

  /** Its attempt ended or was stopped: a tool still running outlives it. */
  unsubscribe(): void {
    if (this.#onLost !== undefined) this.grant?.lost.removeEventListener('abort', this.#onLost);
    this.#lostWait?.unsubscribe();
    this.#outlive();
  }

  #answered(answer: AttemptAnswer): void {
    this.#settled = true;
    if (this.grant !== undefined) giveBack(this.grant);
    this.subscriber.next(toolAnswered(answer));
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
      this.subscriber.next(toolAnswered(outcomeUnknownAnswer(toolName, reason)));
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
