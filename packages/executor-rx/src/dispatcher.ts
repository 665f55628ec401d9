import type { ToolCall, ToolRegistry, ToolResult } from '@toolwaves/core';
import type { Planner } from '@toolwaves/planner';
import type { Observable } from 'rxjs';
import { checkBatch } from './call-ids.js';
import { callSource, type ToolCallSource } from './call-source.js';
import { type DispatchError, invalidConfig } from './dispatch-error.js';
import type { DispatchEvent } from './dispatch-event.js';
import type { DispatcherOptions, DispatchMode, DispatchOptions } from './dispatcher-options.js';
import { openTurn, type Turn } from './open-turn.js';
import {
  type DispatcherConfig,
  resolveDispatcherOptions,
  resolveDispatchOptions,
} from './resolve-dispatcher-options.js';
import { runBatch } from './run-batch.js';
import type { ToolHealth } from './tool-health.js';

/**
 * Runs the tool calls of one model turn and answers each in its slot: one by one, in planned
 * waves or each as soon as its dependencies have ended, under `maxConcurrency` (README: Modes).
 *
 * @example
 * ```ts
 * const dispatcher = new Dispatcher({ registry, mode: 'parallel', maxConcurrency: 4 });
 * const results = await dispatcher.dispatch(calls, { signal });
 * await dispatcher.dispatch(calls, { onEvent: (event) => console.log(event.type) });
 * dispatcher.run(calls).subscribe((event) => console.log(event.type));
 * await dispatcher.dispatchStream(callsAsTheModelWritesThem, { signal }); // AsyncIterable or Observable
 * const turn = dispatcher.openTurn({ signal }); // turn.run(call, execute?), then turn.close()
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
   * Whether the model is given `wait_for_previous` on every tool (option `modelOrdering`): the
   * framework adapters add it to the schemas they hand over when this is `true`.
   */
  get modelOrdering(): boolean {
    return this.#config.modelOrdering;
  }

  /**
   * Runs a batch and resolves with one result per call, in call order (`onEvent` gets its events).
   * @throws DispatchError (as a rejection) for a hard error, an invalid plan or invalid options.
   */
  dispatch(calls: readonly ToolCall[], options: DispatchOptions = {}): Promise<ToolResult[]> {
    return resultsOf(() => this.#run(calls, options, true));
  }

  /**
   * Runs calls the model is still writing, each as soon as it may (README: Streamed calls), and
   * resolves with one result per call, in call order, once the source has ended.
   * @throws DispatchError (as a rejection): `source_failed`, or as {@link Dispatcher.dispatch}.
   */
  dispatchStream(calls: ToolCallSource, options: DispatchOptions = {}): Promise<ToolResult[]> {
    return resultsOf(() => this.#runStream(calls, options, true));
  }

  /**
   * A stream of calls as a cold Observable of {@link DispatchEvent}s (no plan, no waves).
   * @throws DispatchError `invalid_config` (synchronously) for invalid options or `calls`.
   */
  runStream(calls: ToolCallSource, options: DispatchOptions = {}): Observable<DispatchEvent> {
    return this.#runStream(calls, options, false);
  }

  /** {@link Dispatcher.runStream}; `resultsOnly` when only its `batch-end` is read. */
  #runStream(
    calls: ToolCallSource,
    options: DispatchOptions,
    resultsOnly: boolean,
  ): Observable<DispatchEvent> {
    const dispatch = resolveDispatchOptions(options, this.#config);
    return runBatch({ config: this.#config, calls: callSource(calls), dispatch, resultsOnly });
  }

  /**
   * Opens a {@link Turn} fed one call at a time, for frameworks that execute their tools.
   * @throws DispatchError `invalid_config` (synchronously) for invalid options.
   */
  openTurn(options: DispatchOptions = {}): Turn {
    return openTurn({
      config: this.#config,
      dispatch: resolveDispatchOptions(options, this.#config),
    });
  }

  /**
   * The batch as a cold Observable of {@link DispatchEvent}s, ending with `batch-end` or a
   * {@link DispatchError}; unsubscribing stops it.
   * @throws DispatchError `invalid_config` (synchronously) for invalid options, or a call that is
   * not a tool call (a string `id` and `name`).
   */
  run(calls: readonly ToolCall[], options: DispatchOptions = {}): Observable<DispatchEvent> {
    return this.#run(calls, options, false);
  }

  /** {@link Dispatcher.run}; `resultsOnly` when only its `batch-end` is read. */
  #run(
    calls: readonly ToolCall[],
    options: DispatchOptions,
    resultsOnly: boolean,
  ): Observable<DispatchEvent> {
    const dispatch = resolveDispatchOptions(options, this.#config);
    if (!Array.isArray(calls)) {
      throw invalidConfig(`Expected \`calls\` to be an array of tool calls, got ${typeof calls}`);
    }
    const repeats = checkBatch(calls);
    return runBatch({ config: this.#config, calls, dispatch, repeats, resultsOnly });
  }
}

/** The results of a run (its `batch-end`); invalid options (thrown by `run`) become a rejection. */
function resultsOf(run: () => Observable<DispatchEvent>): Promise<ToolResult[]> {
  return new Promise<ToolResult[]>((resolve, reject) => {
    let results: ToolResult[] = [];
    run().subscribe({
      next: (event) => {
        if (event.type === 'batch-end') results = event.results as ToolResult[];
      },
      error: reject,
      complete: () => resolve(results),
    });
  });
}
