import type { AttemptEndInfo, AttemptInstrument, CoordinationGrant, Tool } from '@toolwaves/core';
import type { Subscriber, Subscription } from 'rxjs';
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
import type { BatchState } from './batch-state.js';
import type { StoppableCall } from './calls-in-flight.js';
import { DispatchError } from './dispatch-error.js';
import type { CallOutcome, DispatchEvent } from './dispatch-event.js';
import { isPromiseLike, type MaybeAsync } from './maybe-async.js';
import type { PreparedCall } from './prepared-call.js';
import { recoverAttempt } from './recover-attempt.js';
import type { RecoveryCorrection } from './reflector.js';
import { runPostHooks } from './run-post-hooks.js';
import { runPreHooks } from './run-pre-hooks.js';
import { ToolHolds } from './tool-holds.js';

/**
 * Where a call runs, for {@link runCall}: the same object may serve every call of a wave (or
 * of a batch), so nothing is allocated per call for it.
 */
export interface CallContext {
  /** The dispatch the call belongs to (its config, slots, calls in flight, hard error). */
  readonly batch: BatchState;
  /** Position of the call's wave, on its events; `undefined` without waves (eager, streams). */
  readonly wave: number | undefined;
  /** When the call became ready: its first `call-end`'s `waitMs` counts from here. Default: when subscribed. */
  readonly readyAt?: number | undefined;
  /** Eager mode and streams: when the call arrived and which calls it waited for. */
  readonly eager?: EagerArrival | undefined;
  /** Waves, with instrumentation: the earlier calls this call had to wait for (its dependencies). */
  readonly waitedFor?: readonly number[] | undefined;
}

/** When an eager call arrived and the calls it waited for (on its `call-start` events). */
export interface EagerArrival {
  readonly arrivedAt: number;
  /** Its dependencies that had not ended when it arrived, ascending. */
  readonly waitedFor: readonly number[];
}

/** A retry waited for no call. */
const NO_CALLS: readonly number[] = [];

/** How an attempt stopped by its batch (a cancel, a hard error elsewhere) ends. */
const STOPPED: AttemptEndInfo = { outcome: 'cancelled', retried: false };

const NO_ANSWER: AttemptAnswer = { content: '', isError: false, kind: 'tool_reported' };

/**
 * One call, attempt by attempt, in the order every mode shares. The methods below are the
 * stages, in order; each hands its outcome to the next:
 *
 * 1. `begin`: a new attempt; the prepared call's tool and validated input
 *    (unknown tool, invalid input: soft errors);
 * 2. `preHooks`: `allow` goes on, `block` is a soft error, `abort` a hard one;
 * 3. `holdKeys`: waits until no lingering call (see `LingeringCalls`) holds
 *    a conflicting key — at most the dispatcher's `settleTimeoutMs`;
 * 4. `acquire`: the attempt's `timeoutMs` starts; it takes the fleet
 *    coordinator's grant for its accesses (the wait counts in the timeout);
 * 5. `execute`: runs the tool, racing the timeout and a lost lease; `call-start`;
 * 6. `postHooks`: they observe; one that throws overrules the answer;
 * 7. `record`: the tool's health;
 * 8. `conclude`: the answer goes to the slot, or recovery decides (skip,
 *    retry from 1 after a back-off, or fail the batch).
 *
 * Each stage may answer synchronously or later. After every stage the attempt must still be
 * current (not stopped, not timed out) for the next one to run: a pre hook that cancels the
 * dispatch and then allows never gets its tool run. An attempt that is answered while its tool
 * still runs (timeout, lost lease, stop) leaves the tool's keys held in the dispatcher's
 * `LingeringCalls` until the tool settles, and its fleet grant is released then.
 *
 * @see runCall which runs it as an Observable.
 * @see ToolHolds which keeps the fleet grants and lingering keys of its tools.
 */
export class CallPipeline implements StoppableCall {
  // TS-private members, not `#` ones: one of these is made for every call, and `#` fields and
  // methods measurably add to the dispatcher's per-call overhead (bench/overhead.ts).
  private readonly batch: BatchState;
  private readonly subscriber: Subscriber<DispatchEvent>;
  private readonly wave: number | undefined;
  /** Eager mode and streams: what the call's `call-start` events tell about its wait. */
  private readonly eager: EagerArrival | undefined;
  /** Waves: the earlier calls this call had to wait for (its dependencies), for instrumentation. */
  private readonly waitedFor: readonly number[];
  private prepared: PreparedCall;
  private attempt = 0;
  /** Changes when pending answers (hooks, grant, tool, recovery) become stale. */
  private token = 0;
  /** The call ended (finished, failed, stopped or abandoned): nothing more happens. */
  private closed = false;
  /** A `call-start` was emitted and its `call-end` not yet. */
  private open = false;
  private readyAt: number;
  private beganAt = 0;
  private fleetWaitMs = 0;
  /** When the current attempt asked the coordinator, while it waits for the grant. */
  private fleetWaitFrom: number | undefined;
  private durationMs = 0;
  private answer: AttemptAnswer = NO_ANSWER;
  /** The current attempt's context (its signal); none during a back-off. */
  private context: AttemptContext | undefined;
  /** The attempt's time-out, or the back-off before the next attempt. */
  private timer: Subscription | undefined;
  /** Waiting for lingering calls to give back conflicting keys. */
  private keysWait: Subscription | undefined;
  /** Counts the tools this call ran; the running one is `toolRun` while `running`. */
  private toolRuns = 0;
  private toolRun = 0;
  private running = false;
  /** The fleet grants and lingering keys of its tools; made when a tool first needs it. */
  private holds: ToolHolds | undefined;
  /** The current attempt as the dispatcher's instrumentation sees it, until it has ended. */
  private instrument: AttemptInstrument | undefined;
  /** Time the current attempt waited for earlier calls and lingering keys, ms. */
  private keyWaitMs = 0;

  /** `subscriber`: where the call's events go; completed when the call is done. */
  constructor(prepared: PreparedCall, context: CallContext, subscriber: Subscriber<DispatchEvent>) {
    this.batch = context.batch;
    this.prepared = prepared;
    this.wave = context.wave;
    this.eager = context.eager;
    this.waitedFor = context.waitedFor ?? NO_CALLS;
    this.readyAt = context.readyAt ?? context.batch.now();
    this.subscriber = subscriber;
  }

  /** Whether the call has ended (finished, failed, stopped or abandoned). */
  get ended(): boolean {
    return this.closed;
  }

  /** Called when the call's turn comes: joins the batch's calls in flight, first attempt. */
  start(): void {
    this.batch.inFlight.add(this);
    this.begin();
  }

  /** 1. A new attempt, with the prepared call's tool and validated input. */
  private begin(): void {
    this.attempt += 1;
    this.beganAt = this.batch.now();
    this.fleetWaitMs = 0;
    this.fleetWaitFrom = undefined;
    this.context = new AttemptContext(this.prepared.call.id, this.attempt);
    // Waiting for earlier calls: since the call arrived (eager, streams) or the batch began.
    this.keyWaitMs =
      this.attempt === 1 ? this.beganAt - (this.eager?.arrivedAt ?? this.batch.startedAt) : 0;
    const instrumentation = this.batch.instrument;
    if (instrumentation !== undefined) this.startInstrument(instrumentation);
    const { tool, validation, toolName } = this.prepared;
    if (tool === undefined) {
      this.endEarly(unknownToolAnswer(toolName, this.batch.config.registry.names()));
    } else if (validation?.ok !== true) {
      this.endEarly(softError('invalid_input', validation?.message ?? ''));
    } else {
      this.preHooks(tool, validation.value);
    }
  }

  /** 2. Pre hooks: go on, soft error (block) or hard error (abort). */
  private preHooks(tool: Tool, value: unknown): void {
    const hooks = this.batch.config.preHooks;
    if (hooks.length === 0) {
      this.holdKeys(tool, value);
      return;
    }
    const token = this.token;
    const context = this.context!;
    const { call, index } = this.prepared;
    const verdict = runPreHooks({
      hooks,
      context: {
        call,
        index,
        tool,
        input: value,
        attempt: this.attempt,
        get signal() {
          return context.signal;
        },
      },
      isCurrent: () => this.isCurrent(token),
    });
    this.step(verdict, (settled) => {
      if (settled === undefined) this.holdKeys(tool, value);
      else if (settled instanceof DispatchError) this.hardFail(settled);
      else this.endEarly(settled);
    });
  }

  /** 3. Wait until no lingering call holds a conflicting key (at most `settleTimeoutMs`). */
  private holdKeys(tool: Tool, value: unknown): void {
    const lingering = this.batch.config.lingering;
    if (lingering.size === 0 || !lingering.blocks(this.prepared.node)) {
      this.acquire(tool, value);
      return;
    }
    const token = this.token;
    this.keysWait = lingering.whenClear(this.prepared.node).subscribe({
      next: (event) => {
        if (this.batch.progressEvents) this.subscriber.next(event);
      },
      complete: () => {
        this.keysWait = undefined;
        if (token !== this.token) return;
        // The wait was for another call's tool, not part of this attempt: it shows in `waitMs`.
        const now = this.batch.now();
        this.keyWaitMs += now - this.beganAt;
        this.beganAt = now;
        this.acquire(tool, value);
      },
    });
  }

  /** 4. The attempt's `timeoutMs` starts; the fleet coordinator's grant for its accesses. */
  private acquire(tool: Tool, value: unknown): void {
    const { timeoutMs, coordinator, scheduler } = this.batch.config;
    if (timeoutMs !== undefined) {
      const token = this.token;
      this.timer = scheduler.schedule(() => {
        if (token === this.token) this.timedOut(timeoutMs);
      }, timeoutMs);
    }
    if (coordinator === undefined) {
      this.execute(tool, value, undefined);
      return;
    }
    const { call, toolName } = this.prepared;
    const from = this.batch.now();
    this.fleetWaitFrom = from;
    let grant: MaybeAsync<CoordinationGrant>;
    try {
      const { access, exclusive } = this.prepared.fleetRequest;
      const signal = this.context!.signal;
      grant = coordinator.acquire(
        exclusive
          ? { toolCallId: call.id, toolName, access, exclusive, signal }
          : { toolCallId: call.id, toolName, access, signal },
      );
    } catch (error) {
      grant = Promise.reject(error);
    }
    this.step(
      grant,
      (granted) => {
        this.fleetWaited();
        this.execute(tool, value, granted);
      },
      (error) => {
        this.fleetWaited();
        this.endEarly(refusedGrantAnswer(toolName, error));
      },
      ToolHolds.giveBack,
    );
  }

  /** 5. The tool runs, racing the timeout and a lost lease (and the batch's stop). */
  private execute(tool: Tool, value: unknown, grant: CoordinationGrant | undefined): void {
    const { toolName } = this.prepared;
    if (grant?.lost.aborted) {
      ToolHolds.giveBack(grant);
      this.endEarly(lostLeaseAnswer(toolName, grant.lost.reason));
      return;
    }
    this.emitStart();
    if (this.closed) {
      if (grant !== undefined) ToolHolds.giveBack(grant);
      return;
    }
    const run = ++this.toolRuns;
    this.toolRun = run;
    this.running = true;
    if (grant !== undefined) {
      this.holds ??= new ToolHolds();
      this.holds.holdGrant(grant, () => this.lostLease(grant.lost.reason));
    }
    const context = this.context!;
    AttemptContext.fence(context, grant?.fencingToken);
    const given = this.prepared.givenExecute;
    const instrument = this.instrument;
    let output: MaybeAsync<unknown>;
    try {
      if (instrument === undefined) {
        output = given === undefined ? tool.execute(value, context) : given(value, context);
      } else {
        const fencingToken = grant?.fencingToken;
        const { keyWaitMs, fleetWaitMs } = this;
        instrument.granted(
          fencingToken === undefined
            ? { keyWaitMs, fleetWaitMs }
            : { keyWaitMs, fleetWaitMs, fencingToken },
        );
        output = instrument.run(() =>
          given === undefined ? tool.execute(value, context) : given(value, context),
        );
      }
    } catch (error) {
      this.settled(run, thrownAnswer(toolName, error));
      return;
    }
    if (isPromiseLike(output)) {
      output.then(
        (answer) => this.settled(run, answerOf(toolName, answer)),
        (error: unknown) => this.settled(run, thrownAnswer(toolName, error)),
      );
    } else {
      this.settled(run, answerOf(toolName, output));
    }
  }

  /** Tool number `run` settled: on time, its answer is the attempt's; late, its keys are free. */
  private settled(run: number, answer: AttemptAnswer): void {
    if (this.running && run === this.toolRun) {
      this.running = false;
      this.holds?.releaseGrant();
      this.executed(answer);
      return;
    }
    this.holds?.settleLate(run);
  }

  /** The attempt's answer after its tool ran (or timed out, or lost its lease). */
  private executed(answer: AttemptAnswer): void {
    this.clearTimer();
    this.durationMs = this.batch.now() - this.beganAt;
    this.answer = answer;
    this.postHooks(!answer.isError);
  }

  /** 6. Post hooks (`toolOk`: the tool's own answer, whatever the hooks do). */
  private postHooks(toolOk: boolean): void {
    const hooks = this.batch.config.postHooks;
    if (hooks.length === 0) {
      this.record(toolOk);
      return;
    }
    const token = this.token;
    const { call, index, toolName } = this.prepared;
    const answer = this.answer;
    const overrule = runPostHooks({
      hooks,
      context: {
        call,
        index,
        toolName,
        input: this.prepared.validation?.ok === true ? this.prepared.validation.value : undefined,
        content: answer.content,
        isError: answer.isError,
        durationMs: this.durationMs,
        attempt: this.attempt,
      },
      isCurrent: () => this.isCurrent(token),
    });
    this.step(overrule, (settled) => {
      if (settled !== undefined) this.answer = settled;
      this.record(toolOk);
    });
  }

  /** 7. The health record of an attempt that ran its tool. */
  private record(toolOk: boolean): void {
    this.batch.config.health.record({
      toolName: this.prepared.toolName,
      ok: toolOk,
      durationMs: this.durationMs,
    });
    this.conclude();
  }

  /** 8. The answer goes to the slot, or recovery decides what comes next. */
  private conclude(): void {
    const answer = this.answer;
    const recovery = this.batch.config.recovery;
    // An effect that may have taken place is never retried automatically.
    if (!answer.isError || recovery === undefined || answer.kind === 'outcome_unknown') {
      this.finish(answer.isError ? 'error' : 'ok', answer.content);
      return;
    }
    const { call, index, toolName, input } = this.prepared;
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
        attempt: this.attempt,
        ...(answer.error === undefined ? {} : { error: answer.error }),
      },
    });
    this.step(step, (settled) => {
      if (settled instanceof DispatchError) this.hardFail(settled);
      else if (settled.action === 'finish') this.finish('error', settled.content);
      else this.retry(settled.delayMs, settled.correction);
    });
  }

  /** A soft error before the tool ran: no post hooks, no health record; then recovery. */
  private endEarly(answer: AttemptAnswer): void {
    this.clearTimer();
    this.durationMs = this.batch.now() - this.beganAt;
    this.answer = answer;
    if (!this.open) this.emitStart();
    if (this.closed) return;
    this.conclude();
  }

  /** The attempt ran past `timeoutMs`: its signal aborts, pending answers go stale. */
  private timedOut(timeoutMs: number): void {
    this.timer = undefined;
    const message = `Tool \`${this.prepared.toolName}\` timed out after ${timeoutMs} ms`;
    const reason = new Error(message);
    reason.name = 'TimeoutError';
    const ran = this.running;
    this.fleetWaited();
    this.interrupt(reason);
    if (!ran) this.endEarly(softError('timeout', message));
    else this.executed(softError('timeout', message));
  }

  /**
   * The fleet grant was lost while the tool ran: the tool is told to stop (it keeps its grant
   * until it settles), and the call is answered `outcome_unknown`.
   */
  private lostLease(reason: unknown): void {
    if (!this.running) return;
    this.interrupt(reason ?? new Error('lease lost'));
    this.executed(outcomeUnknownAnswer(this.prepared.toolName, reason));
  }

  /**
   * The current attempt stops where it is: pending answers go stale, its signal aborts, it stops
   * waiting for keys, and a tool still running keeps its keys as a lingering call.
   */
  private interrupt(reason: unknown): void {
    this.token += 1;
    if (this.context !== undefined) AttemptContext.abort(this.context, reason);
    this.clearTimer();
    this.keysWait?.unsubscribe();
    this.keysWait = undefined;
    if (!this.running) return;
    this.running = false;
    const { call, toolName, node } = this.prepared;
    this.holds ??= new ToolHolds();
    this.holds.outlive({
      run: this.toolRun,
      lingering: this.batch.config.lingering,
      node,
      toolCallId: call.id,
      toolName,
    });
  }

  /** Ends the call with its answer in the batch's slot. */
  private finish(outcome: 'ok' | 'error', content: string): void {
    const { call, index, toolName } = this.prepared;
    const result = {
      toolCallId: call.id,
      toolName,
      content,
      isError: this.answer.isError,
      durationMs: this.durationMs,
    };
    this.batch.answered(index, result);
    this.endInstrument(
      this.answer.isError
        ? { outcome: 'error', result, errorKind: this.answer.kind, retried: false }
        : { outcome: 'ok', result, retried: false },
    );
    this.end(outcome, content, this.durationMs);
    if (this.closed) return;
    this.close();
    this.subscriber.complete();
  }

  /** Ends the attempt as a retry; the next one begins after `delayMs`, corrected. */
  private retry(delayMs: number, correction: RecoveryCorrection | undefined): void {
    const { call, toolName } = this.prepared;
    const { content, kind } = this.answer;
    const durationMs = this.durationMs;
    this.endInstrument({
      outcome: 'error',
      result: { toolCallId: call.id, toolName, content, isError: true, durationMs },
      errorKind: kind,
      retried: true,
    });
    this.end('retry', this.answer.content, this.durationMs);
    if (this.closed) return;
    // A cancel during the back-off does not reach the attempt that has ended.
    this.context = undefined;
    if (correction !== undefined) this.prepared = this.prepared.corrected(correction);
    this.readyAt = this.batch.now();
    if (delayMs === 0) {
      this.begin();
      return;
    }
    const token = this.token;
    this.timer = this.batch.config.scheduler.schedule(() => {
      this.timer = undefined;
      if (token === this.token) this.begin();
    }, delayMs);
  }

  /** This call fails the batch. */
  private hardFail(error: DispatchError): void {
    this.endInstrument({ outcome: 'error', errorKind: error.code, retried: false });
    if (!this.open) this.emitStart();
    if (this.open) this.end('hard-error', error.message, this.batch.now() - this.beganAt);
    if (this.closed) return;
    this.interrupt(error);
    this.close();
    this.batch.fail(error);
    this.subscriber.complete();
  }

  /** Called by the batch on a hard error elsewhere, or a cancel. */
  stop(outcome: Extract<CallOutcome, 'cancelled' | 'aborted'>): void {
    if (this.closed) return;
    this.endInstrument(STOPPED);
    if (this.open) this.end(outcome, undefined, this.batch.now() - this.beganAt);
    this.interrupt(this.batch.failure);
    this.close();
    this.subscriber.complete();
  }

  /** Called by the batch when the run is unsubscribed from: stops quietly (no more events). */
  abandon(): void {
    if (this.closed) return;
    this.endInstrument(STOPPED);
    this.interrupt(this.batch.failure);
    this.close();
  }

  /**
   * Hands a stage's answer to `next`, now or when it settles, only while the attempt is still
   * current; a stale answer goes to `onStale` (a grant that came too late is given back).
   */
  private step<T>(
    value: MaybeAsync<T>,
    next: (value: T) => void,
    onError?: (error: unknown) => void,
    onStale?: (value: T) => void,
  ): void {
    if (!isPromiseLike(value)) {
      if (this.isCurrent(this.token)) next(value);
      else onStale?.(value);
      return;
    }
    const token = this.token;
    value.then(
      (settled) => {
        if (this.isCurrent(token)) next(settled);
        else onStale?.(settled);
      },
      (error: unknown) => {
        if (this.isCurrent(token)) onError?.(error);
      },
    );
  }

  /**
   * Whether the attempt that noted `token` may go on: not timed out, not stopped, and someone
   * still listens. A run unsubscribed from inside a synchronous stage (a pre hook) is noticed
   * here, before the batch's own teardown has even been registered.
   */
  private isCurrent(token: number): boolean {
    if (token !== this.token || this.closed) return false;
    if (!this.subscriber.closed && !this.batch.unobserved) return true;
    this.abandon();
    return false;
  }

  /** The wait for the coordinator is over (granted, refused, or timed out). */
  private fleetWaited(): void {
    if (this.fleetWaitFrom === undefined) return;
    this.fleetWaitMs = this.batch.now() - this.fleetWaitFrom;
    this.fleetWaitFrom = undefined;
  }

  /** The attempt begins, for the instrumentation: what it waited for is known now. */
  private startInstrument(instrumentation: NonNullable<BatchState['instrument']>): void {
    const { call, index, toolName, tool, input } = this.prepared;
    const waited = this.attempt === 1 ? (this.eager?.waitedFor ?? this.waitedFor) : NO_CALLS;
    const calls = this.batch.calls;
    this.instrument = instrumentation.startAttempt({
      toolCallId: call.id,
      toolName,
      ...(tool === undefined ? {} : { toolDescription: tool.description }),
      index,
      attempt: this.attempt,
      input,
      waitedFor: waited.map((i) => calls[i]!.id),
    });
  }

  /** The attempt has ended, for the instrumentation (once per attempt). */
  private endInstrument(info: AttemptEndInfo): void {
    const instrument = this.instrument;
    if (instrument === undefined) return;
    this.instrument = undefined;
    instrument.end(info);
  }

  private emitStart(): void {
    this.open = true;
    if (!this.batch.progressEvents) return;
    const { call, index, toolName, input } = this.prepared;
    const eager = this.eager;
    this.subscriber.next({
      type: 'call-start',
      wave: this.wave,
      index,
      toolCallId: call.id,
      toolName,
      input,
      attempt: this.attempt,
      fleetWaitMs: this.fleetWaitMs,
      ...(eager === undefined
        ? {}
        : {
            waitedFor: this.attempt === 1 ? eager.waitedFor : NO_CALLS,
            waitedMs: this.batch.now() - eager.arrivedAt,
          }),
    });
  }

  private end(outcome: CallOutcome, content: string | undefined, durationMs: number): void {
    this.open = false;
    if (!this.batch.progressEvents) return;
    const { call, index, toolName } = this.prepared;
    this.subscriber.next({
      type: 'call-end',
      wave: this.wave,
      index,
      toolCallId: call.id,
      toolName,
      attempt: this.attempt,
      outcome,
      isError: outcome !== 'ok',
      content,
      durationMs,
      waitMs: this.beganAt - this.readyAt,
    });
  }

  private clearTimer(): void {
    if (this.timer !== undefined) {
      this.timer.unsubscribe();
      this.timer = undefined;
    }
  }

  private close(): void {
    this.closed = true;
    this.token += 1;
    this.clearTimer();
    this.keysWait?.unsubscribe();
    this.keysWait = undefined;
    this.batch.inFlight.ended();
  }
}
