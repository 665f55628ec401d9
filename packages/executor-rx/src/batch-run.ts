import type { ToolCall, ToolResult } from '@toolwaves/core';
import { DispatchError } from './dispatch-error.js';
import type { CallOutcome } from './dispatch-event.js';
import type { DispatcherConfig } from './resolve-dispatcher-options.js';

/** A running call the batch can stop. */
export interface StoppableCall {
  /** Ends the call now: its open attempt gets a `call-end` with this outcome. */
  stop(outcome: Extract<CallOutcome, 'cancelled' | 'aborted'>): void;
  /** Ends the call quietly (nobody listens any more): timers cleared, its tool told to stop. */
  abandon(): void;
}

/**
 * The state of one dispatch: result slots, the batch's `AbortController` (the signal tools
 * see), the calls in flight, and the hard error once there is one. A hard error stops every
 * call in flight at once (each gets its `call-end`), and no call starts after it.
 */
export class BatchRun {
  readonly config: DispatcherConfig;
  readonly calls: readonly ToolCall[];
  /** Whether waves and calls emit their events (not when nobody can see them: `dispatch`). */
  readonly progressEvents: boolean;
  /** Slot i answers call i. */
  readonly results: (ToolResult | undefined)[];
  readonly controller = new AbortController();
  readonly inFlight = new Set<StoppableCall>();
  readonly startedAt: number;
  failure: DispatchError | undefined;
  finished = false;
  /** Call starts nested in one synchronous stack (see `runCall`). */
  syncDepth = 0;
  waveStartedAt: number;

  constructor(config: DispatcherConfig, calls: readonly ToolCall[], progressEvents: boolean) {
    this.config = config;
    this.calls = calls;
    this.progressEvents = progressEvents;
    this.results = new Array<ToolResult | undefined>(calls.length);
    this.startedAt = config.scheduler.now();
    this.waveStartedAt = this.startedAt;
  }

  now(): number {
    return this.config.scheduler.now();
  }

  /** Fails the batch with a hard error (the first one wins) and stops the calls in flight. */
  fail(error: DispatchError): void {
    if (this.failure !== undefined || this.finished) return;
    this.failure = error;
    this.controller.abort(error);
    const outcome = error.code === 'cancelled' ? 'cancelled' : 'aborted';
    for (const call of this.inFlight) call.stop(outcome);
  }

  /**
   * The run was torn down: when it had not ended, the calls in flight are abandoned (their
   * timers cleared) and tools are told to stop through their signal.
   */
  dispose(): void {
    if (this.failure !== undefined || this.finished) return;
    this.failure = new DispatchError({
      code: 'cancelled',
      message: 'The dispatch was unsubscribed from before it ended',
    });
    this.controller.abort(this.failure);
    for (const call of this.inFlight) call.abandon();
  }
}
