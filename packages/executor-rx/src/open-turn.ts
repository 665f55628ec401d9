import type { ToolCall, ToolResult } from '@toolwaves/core';
import { Subject } from 'rxjs';
import { DispatchError, invalidConfig } from './dispatch-error.js';
import type { ToolExecute } from './prepared-call.js';
import type { DispatcherConfig, ResolvedDispatchOptions } from './resolve-dispatcher-options.js';
import { runBatch } from './run-batch.js';

/** A turn fed one call at a time, scheduled like a stream (`Dispatcher.openTurn`, README). */
export interface Turn {
  /**
   * Adds a call; resolves with its result once it ran (`execute`, if given, replaces the tool's).
   * @throws DispatchError (as a rejection): the turn's hard error; `turn_closed` after `close()`.
   */
  run(call: ToolCall, execute?: ToolExecute): Promise<ToolResult>;
  /** No more calls: resolves once every call has settled, or rejects with the hard error. */
  close(): Promise<void>;
}

/** Options of {@link openTurn}. */
export interface OpenTurnOptions {
  readonly config: DispatcherConfig;
  readonly dispatch: ResolvedDispatchOptions;
}

interface Pending {
  readonly resolve: (result: ToolResult) => void;
  readonly reject: (error: unknown) => void;
}

/** A turn as a thin layer over the stream path. */
export function openTurn(options: OpenTurnOptions): Turn {
  const calls = new Subject<ToolCall>();
  const given: (ToolExecute | undefined)[] = [];
  const pending: (Pending | undefined)[] = [];
  let failure: unknown;
  let failed = false;
  let closed = false;
  const events = runBatch({
    config: options.config,
    calls,
    dispatch: options.dispatch,
    turn: true,
    resultsOnly: true,
    executeOf: (index) => given[index],
  });
  const done = new Promise<void>((resolve, reject) => {
    events.subscribe({
      next: (event) => {
        if (event.type !== 'call-skipped' && event.type !== 'call-end') return;
        const { result, index } = event;
        if (result === undefined) return;
        const waiting = pending[index];
        pending[index] = undefined;
        waiting?.resolve(result);
      },
      error: (error: unknown) => {
        failed = true;
        failure = error;
        for (const waiting of pending.splice(0)) waiting?.reject(error);
        reject(error);
      },
      complete: resolve,
    });
  });
  // A turn nobody closes must not leave an unhandled rejection behind.
  done.catch(() => undefined);

  return {
    run(call, execute) {
      if (failed) return Promise.reject(failure);
      if (closed) {
        return Promise.reject(
          new DispatchError({
            code: 'turn_closed',
            message: `The turn is closed: call \`${String(call?.id)}\` was not run`,
          }),
        );
      }
      if (execute !== undefined && typeof execute !== 'function') {
        return Promise.reject(
          invalidConfig(
            `Expected \`execute\` of call \`${String(call?.id)}\` to be a function, got ${typeof execute}`,
          ),
        );
      }
      return new Promise<ToolResult>((resolve, reject) => {
        const index = given.length;
        given.push(execute);
        pending[index] = { resolve, reject };
        calls.next(call);
      });
    },
    close() {
      if (!closed) {
        closed = true;
        calls.complete();
      }
      return done;
    },
  };
}
