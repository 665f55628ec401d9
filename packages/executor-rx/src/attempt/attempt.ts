import type {
  AttemptEndInfo,
  AttemptInstrument,
  AttemptStartInfo,
  ToolResult,
} from '@toolwaves/core';
import type { Observer } from 'rxjs';
import type { AttemptAnswer } from '../attempt-answer.js';
import type { CallBatch, CallPlace } from '../call-batch.js';
import type {
  CallEndEvent,
  CallOutcome,
  CallStartEvent,
  DispatchEvent,
} from '../dispatch-event.js';
import type { PreparedCall } from '../prepared-call.js';
import type { SubmitterContext } from '../submitter-context.js';
import { AttemptContext } from './attempt-context.js';

/** An event being built (its optional fields are set after the literal). */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A retry waited for no call. */
const NO_CALLS: readonly number[] = [];

/** Options of {@link Attempt}. */
export interface AttemptOptions {
  readonly batch: CallBatch;
  readonly place: CallPlace;
  readonly prepared: PreparedCall;
  readonly attempt: number;
  /** When the attempt became ready (its `waitMs` counts from here). */
  readonly readyAt: number;
  readonly events: Observer<DispatchEvent>;
}

/** One attempt of one call. */
export class Attempt {
  readonly batch: CallBatch;
  readonly place: CallPlace;
  readonly prepared: PreparedCall;
  readonly number: number;
  readonly readyAt: number;
  readonly context: AttemptContext;
  // The attempt's timings: written here only, as its stages report what happened.
  #beganAt: number;
  #keyWaitMs: number;
  #fleetWaitMs = 0;
  #fleetAskedAt: number | undefined;
  #durationMs = 0;
  #answeredAt: number | undefined = undefined;
  /** A `call-start` was emitted and its `call-end` not yet. */
  open = false;
  /** Its tool was started (its answer then goes through post hooks and the health record). */
  toolStarted = false;
  /** Its fleet grant was lost while its tool ran, and why. */
  leaseLost: { readonly reason: unknown } | undefined = undefined;
  readonly #events: Observer<DispatchEvent>;
  /** The instrumentation's view of the attempt (`granted`, `run`) until it ended, if any. */
  instrument: AttemptInstrument | undefined;

  constructor(options: AttemptOptions) {
    const { batch, place, prepared } = options;
    this.batch = batch;
    this.place = place;
    this.prepared = prepared;
    this.number = options.attempt;
    this.readyAt = options.readyAt;
    this.#events = options.events;
    this.context = new AttemptContext(prepared.call.id, options.attempt);
    // Handed the time just read when it begins in the step of the answer that freed its slot.
    this.#beganAt = batch.clock.began();
    // Waiting for earlier calls: since the call arrived (eager, streams) or the batch began.
    this.#keyWaitMs =
      options.attempt === 1 ? this.#beganAt - (place.arrivedAt ?? batch.startedAt) : 0;
    // No instrumentation (the usual case): no start info is made.
    this.instrument =
      batch.instrument === undefined
        ? undefined
        : startAttempt({
            batch,
            prepared,
            attempt: options.attempt,
            waitedFor: this.#waitedFor(),
            submitter: place.submitter,
          });
  }

  /** When the attempt began (after any wait for keys held by a tool that outlived its answer). */
  get beganAt(): number {
    return this.#beganAt;
  }

  /** Time it waited for earlier calls and for keys held by tools that outlived their answer. */
  get keyWaitMs(): number {
    return this.#keyWaitMs;
  }

  /** Time it waited for the fleet coordinator's grant. */
  get fleetWaitMs(): number {
    return this.#fleetWaitMs;
  }

  /** From its beginning to its answer (the tool's, or an early one). */
  get durationMs(): number {
    return this.#durationMs;
  }

  /** Keys held by a tool that outlived its answer are clear: the wait was for another call's
   * tool, not part of this attempt (it shows in `waitMs`, not `durationMs`). */
  keysCleared(): void {
    const now = this.now();
    this.#keyWaitMs += now - this.#beganAt;
    this.#beganAt = now;
  }

  /** It asks the fleet coordinator. */
  fleetAsked(): void {
    this.#fleetAskedAt = this.now();
  }

  /** The wait for the coordinator is over (granted, refused, or timed out). */
  fleetAnswered(): void {
    if (this.#fleetAskedAt === undefined) return;
    this.#fleetWaitMs = this.now() - this.#fleetAskedAt;
    this.#fleetAskedAt = undefined;
  }

  /** Its answer came (the tool's or an early one): its duration. */
  answered(): void {
    const now = this.now();
    this.#answeredAt = now;
    this.#durationMs = now - this.#beganAt;
  }

  /** When its answer came, once it did. */
  get answeredAt(): number | undefined {
    return this.#answeredAt;
  }

  now(): number {
    return this.batch.config.scheduler.now();
  }

  emit(event: DispatchEvent): void {
    this.#events.next(event);
  }

  /** The attempt may run (or ends before its tool ran): its `call-start`. */
  emitStart(): void {
    this.open = true;
    // Nobody would see it (only the results are read): the event and its timings are not made.
    if (!this.batch.startsSeen) return;
    const { call, index, toolName, input } = this.prepared;
    const { place } = this;
    const arrivedAt = place.arrivedAt;
    const event: Writable<CallStartEvent> = {
      type: 'call-start',
      wave: place.wave,
      index,
      toolCallId: call.id,
      toolName,
      input,
      attempt: this.number,
      fleetWaitMs: this.#fleetWaitMs,
    };
    // Optional fields set after the literal, not spread into it (a spread is a copy at run time,
    // for every event of every call).
    if (arrivedAt !== undefined) {
      event.waitedFor = this.#waitedFor();
      event.waitedMs = this.now() - arrivedAt;
    }
    const limitWaits = place.limitWaits;
    if (limitWaits !== undefined && limitWaits.length > 0 && this.number === 1) {
      event.waitedForLimits = limitWaits;
    }
    const edges = this.prepared.edges;
    if (edges !== undefined) event.edges = edges;
    this.emit(event);
  }

  /** The attempt's `call-end` (when its `call-start` was emitted); `result` on a final answer. */
  endEvent(
    outcome: CallOutcome,
    content: string | undefined,
    durationMs: number,
    result?: ToolResult,
  ): void {
    if (!this.open) return;
    this.open = false;
    const { call, index, toolName } = this.prepared;
    const event: Writable<CallEndEvent> = {
      type: 'call-end',
      wave: this.place.wave,
      index,
      toolCallId: call.id,
      toolName,
      attempt: this.number,
      outcome,
      isError: outcome !== 'ok',
      content,
      durationMs,
      waitMs: this.#beganAt - this.readyAt,
    };
    if (result !== undefined) event.result = result;
    if (this.leaseLost !== undefined) event.leaseLost = true;
    this.emit(event);
  }

  /** Tells the instrumentation how the attempt ended (once). */
  endInstrument(info: AttemptEndInfo): void {
    const instrument = this.instrument;
    if (instrument === undefined) return;
    this.instrument = undefined;
    instrument.end(info);
  }

  /** The answer's result for the call's slot. */
  resultOf(answer: AttemptAnswer, content: string): ToolResult {
    const { call, toolName } = this.prepared;
    return {
      toolCallId: call.id,
      toolName,
      content,
      isError: answer.isError,
      durationMs: this.#durationMs,
    };
  }

  #waitedFor(): readonly number[] {
    return this.number === 1 ? this.place.waitedFor : NO_CALLS;
  }
}

/** Options of {@link startAttempt}. */
export interface StartAttemptOptions {
  readonly batch: CallBatch;
  readonly prepared: PreparedCall;
  readonly attempt: number;
  /** The calls it waited for (indices). */
  readonly waitedFor: readonly number[];
  /** Its span starts in the submitter's context (it parents on the submitter's span). */
  readonly submitter: SubmitterContext;
}

/** Tells the batch's instrumentation, if any, that an attempt of `prepared` begins. */
export function startAttempt(options: StartAttemptOptions): AttemptInstrument | undefined {
  const { batch, prepared, attempt, waitedFor } = options;
  const instrument = batch.instrument;
  if (instrument === undefined) return undefined;
  const { call, index, toolName, tool, input } = prepared;
  const info: AttemptStartInfo = {
    toolCallId: call.id,
    toolName,
    ...(tool === undefined ? {} : { toolDescription: tool.description }),
    index,
    attempt,
    input,
    waitedFor: waitedFor.map((i) => batch.calls[i]!.id),
  };
  return options.submitter(() => instrument.startAttempt(info));
}
