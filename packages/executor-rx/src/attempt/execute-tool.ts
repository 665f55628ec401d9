import type { AttemptInstrument, CoordinationGrant, ToolContext } from '@toolwaves/core';
import type { Subscription } from 'rxjs';
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
import { type StageObserver, StageWork } from './stage-run.js';

/**
 * Stage 5: the attempt's `call-start`, then the tool runs (inside the instrumentation's `run`, in
 * the submitter's async context) with the attempt's own signal, racing a lost lease; stopped
 * (timeout, cancellation, a lost lease), a tool still running outlives the attempt until it
 * settles, holding its keys and its grant. Work the attempt's stage run starts itself (or, under a
 * timeout or after a grant, through `stageWorkObservable`).
 */
export function executeTool(attempt: Attempt, granted: Granted): StageWork<Answered> {
  return new ToolRun(attempt, granted);
}

/** One run of a tool (a class: its callbacks are made once per run, not per closure). */
class ToolRun extends StageWork<Answered> {
  #observer: StageObserver<Answered> | undefined;
  /** It was stopped (unsubscribed): it hands nothing on. */
  #stopped = false;
  #settled = false;
  #output: PromiseLike<unknown> | undefined;
  /** Whether the tool marked its effect committed (with a grant only). */
  #committed: (() => boolean) | undefined;
  /** After a lost lease: the settle timeout, past which the outcome is unknown. */
  #lostWait: Subscription | undefined;
  /** Listens for the grant's loss while the tool runs (with a grant only). */
  #onLost: (() => void) | undefined;
  private readonly grant: CoordinationGrant | undefined;

  constructor(
    private readonly attempt: Attempt,
    private readonly input: Granted,
  ) {
    super();
    this.grant = input.grant;
  }

  start(observer: StageObserver<Answered>): void {
    this.#observer = observer;
    const attempt = this.attempt;
    const grant = this.grant;
    const input: ToolInput = this.input;
    const { toolName, givenExecute } = attempt.prepared;
    // Its `call-start` before the tool runs, once its keys and grant are held (`fleetWaitMs` is
    // known): an observer that must act before a tool runs (a write-ahead journal, an approval
    // UI, a span) can. One that stops the batch on seeing it stops the tool before it starts.
    attempt.emitStart();
    if (this.#stopped) {
      if (grant !== undefined) giveBack(grant);
      return;
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
      return;
    }
    if (!isPromiseLike(output)) {
      this.#answered(answerOf(toolName, output));
      return;
    }
    this.#output = output;
    // Stopped while the tool ran synchronously: it outlives the attempt at once.
    if (this.#stopped) {
      this.#outlive();
      return;
    }
    if (grant !== undefined) {
      const onLost = (): void => this.#lost(); // none without a grant
      this.#onLost = onLost;
      grant.lost.addEventListener('abort', onLost, { once: true });
    }
    output.then(
      (value) => this.#settle(value, false),
      (error: unknown) => this.#settle(error, true),
    );
  }

  /** Its attempt ended or was stopped: a tool still running outlives it. */
  unsubscribe(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#onLost !== undefined) this.grant?.lost.removeEventListener('abort', this.#onLost);
    this.#lostWait?.unsubscribe();
    this.#outlive();
  }

  #answered(answer: AttemptAnswer): void {
    this.#settled = true;
    if (this.grant !== undefined) giveBack(this.grant);
    this.#handOn(toolAnswered(answer));
  }

  #handOn(answered: Answered): void {
    if (this.#stopped) return;
    const observer = this.#observer!;
    observer.next(answered);
    observer.complete();
  }

  #settle(outcome: unknown, threw: boolean): void {
    if (this.#stopped) return;
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
    const unknown = (): void => this.#handOn(toolAnswered(outcomeUnknownAnswer(toolName, reason)));
    if (this.#committed?.() !== true) {
      unknown();
      return;
    }
    const { settleTimeoutMs, scheduler } = attempt.batch.config;
    if (Number.isFinite(settleTimeoutMs))
      this.#lostWait = scheduler.schedule(unknown, settleTimeoutMs);
  }

  /** Answered without its tool (timeout, lost lease, stop): a tool still running outlives the
   * attempt (one that never started, or returned at once, has nothing to outlive). */
  #outlive(): void {
    const output = this.#output;
    if (this.#settled || output === undefined) return;
    const attempt = this.attempt;
    AttemptContext.abort(attempt.context, attempt.batch.failure ?? new Error('stopped'));
    const { call, toolName } = attempt.prepared;
    const hold = attempt.batch.config.outliving.hold({
      node: attempt.prepared.node,
      toolCallId: call.id,
      toolName,
      grant: this.grant,
    });
    output.then(
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
