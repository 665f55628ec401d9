import type { ToolCall, ToolRegistry, ToolResult } from '@toolwaves/core';
import type { Planner } from '@toolwaves/planner';
import { type Observable, tap } from 'rxjs';
import { DispatchError } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';
import type { DispatcherOptions, DispatchMode, DispatchOptions } from './dispatcher-options.js';
import {
  type DispatcherConfig,
  resolveDispatcherOptions,
  resolveDispatchOptions,
} from './resolve-dispatcher-options.js';
import { runBatch } from './run-batch.js';
import type { ToolHealth } from './tool-health.js';

/**
 * Runs the tool calls of one model turn and answers each in its slot. Sequential by default;
 * in parallel mode it plans waves once (default `greedyPlanner()`), refuses a plan that breaks
 * the rules, runs the waves one after another and each wave's calls concurrently under
 * `maxConcurrency`. Both modes run every call through the same pipeline: validate input → pre
 * hooks → hold its keys (calls of this dispatcher still settling, the fleet `coordinator`) →
 * execute with timeout → post hooks → health record → recovery.
 *
 * Soft errors (the tool threw or answered `isError`, unknown tool, invalid input, blocked,
 * timed out, recovery gave up) are results with `isError: true`; hard errors (cancelled, a hook
 * aborted, loop detected, recovery exhausted) reject the whole dispatch with a
 * {@link DispatchError} and no results.
 *
 * @example
 * ```ts
 * const dispatcher = new Dispatcher({ registry, mode: 'parallel', maxConcurrency: 4 });
 * const results = await dispatcher.dispatch(calls, { signal });
 * await dispatcher.dispatch(calls, { onEvent: (event) => console.log(event.type) });
 * dispatcher.run(calls).subscribe((event) => console.log(event.type));
 * ```
 * @see DispatchEvent for the event stream.
 */
export class Dispatcher {
  readonly #config: DispatcherConfig;

  /** @throws DispatchError `invalid_config` naming the option and the value. */
  constructor(options: DispatcherOptions) {
    this.#config = resolveDispatcherOptions(options);
  }

  /** The tools this dispatcher runs. */
  get registry(): ToolRegistry {
    return this.#config.registry;
  }

  /** The default mode of this dispatcher's batches. */
  get mode(): DispatchMode {
    return this.#config.mode;
  }

  /** The default cap of this dispatcher's batches. */
  get maxConcurrency(): number {
    return this.#config.maxConcurrency;
  }

  /** The planner of parallel batches. */
  get planner(): Planner {
    return this.#config.planner;
  }

  /** Where this dispatcher records attempts (possibly shared). */
  get health(): ToolHealth {
    return this.#config.health;
  }

  /**
   * Runs a batch and resolves with one result per call, in call order. With `onEvent`, every
   * event of the batch goes to it as it happens (the same events `run` emits).
   *
   * @throws DispatchError (as a rejection) for a hard error, an invalid plan or invalid options.
   */
  dispatch(calls: readonly ToolCall[], options: DispatchOptions = {}): Promise<ToolResult[]> {
    return new Promise<ToolResult[]>((resolve, reject) => {
      let results: ToolResult[] = [];
      // Without `onEvent` only the results are wanted: wave and call events are not even built.
      this.#run(calls, options, false).subscribe({
        next: (event) => {
          if (event.type === 'batch-end') results = event.results as ToolResult[];
        },
        error: reject,
        complete: () => resolve(results),
      });
    });
  }

  /**
   * The batch as a cold Observable of {@link DispatchEvent}s; each subscription runs it once.
   * It ends with `batch-end` (the results) or errors with a {@link DispatchError}.
   * Unsubscribing stops the batch and aborts the tools' signals.
   *
   * @throws DispatchError `invalid_config` (synchronously) for invalid options.
   */
  run(calls: readonly ToolCall[], options: DispatchOptions = {}): Observable<DispatchEvent> {
    return this.#run(calls, options, true);
  }

  #run(
    calls: readonly ToolCall[],
    options: DispatchOptions,
    observed: boolean,
  ): Observable<DispatchEvent> {
    const dispatch = resolveDispatchOptions(options, this.#config);
    const { onEvent } = dispatch;
    if (!Array.isArray(calls)) {
      throw new DispatchError({
        code: 'invalid_config',
        message: `Expected \`calls\` to be an array of tool calls, got ${typeof calls}`,
      });
    }
    const events = runBatch({
      config: this.#config,
      calls,
      dispatch,
      progressEvents: observed || onEvent !== undefined,
    });
    return onEvent === undefined ? events : events.pipe(tap(onEvent));
  }
}
