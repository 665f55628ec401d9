import { optionMessage } from './check-option.js';
import type { ToolCall } from './tool-call.js';
import type { ToolContext } from './tool-context.js';
import type { ToolOutput } from './tool-output.js';
import type { ToolResult } from './tool-result.js';

/**
 * A turn fed one call at a time, as `Dispatcher.openTurn` returns it (`@toolwaves/executor-rx`):
 * `run(call, execute)` resolves with the call's result once it has run, `close()` ends it.
 */
export interface TurnLike {
  run(
    call: ToolCall,
    execute?: (input: unknown, context: ToolContext) => Promise<string | ToolOutput>,
  ): Promise<ToolResult>;
  close(): Promise<void>;
}

/** What {@link StepTurns} needs of a dispatcher: a `Dispatcher` fits. */
export interface TurnSource {
  openTurn(): TurnLike;
}

/** Options of {@link StepTurns.run}: one call of a framework's step. */
export interface StepCallOptions<T> {
  /**
   * The framework's step (one model response) the call belongs to: calls of the same step share
   * a turn. Compared with `===` (an id, or an object the framework shares between the calls).
   */
  readonly step: unknown;
  readonly call: ToolCall;
  /**
   * The framework's abort signal for this call: once aborted, the call is answered with its
   * reason, and if it had not started, the framework's implementation never runs.
   */
  readonly signal?: AbortSignal | undefined;
  /** Runs the call the framework's way (its own tool) once toolwaves lets it start. */
  readonly execute: (context: ToolContext) => Promise<T>;
  /** The framework's answer as toolwaves records it (events, hooks, instrumentation). */
  readonly output: (value: T) => string | ToolOutput;
}

/**
 * How a call of a framework's step ended:
 * - `ran`: the framework's implementation returned `value` (hand it back to the framework as it is);
 * - `threw`: the framework's implementation threw `error` (rethrow it: it is that tool's error);
 * - `answered`: toolwaves answered without the implementation's answer (invalid input, a hook
 *   blocked it, it timed out, ...): `result` is that soft error.
 */
export type StepCallOutcome<T> =
  | { readonly kind: 'ran'; readonly value: T }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'answered'; readonly result: ToolResult };

interface OpenStep {
  readonly turn: TurnLike;
  running: number;
}

/**
 * The turns of a framework that executes its tools itself (LangChain, OpenAI Agents, the AI SDK
 * with `execute`): the calls of one step go, in the order the framework starts them, into one
 * turn of the dispatcher, which decides when each may start (two edits of one file never
 * overlap; a read of another file runs beside them). A step's turn opens with its first call and
 * closes as soon as none of its calls is running or waiting: a later call of the same step then
 * opens a new turn, which is just as safe, since everything before it has ended.
 *
 * @example
 * ```ts
 * const turns = new StepTurns({ dispatcher, error: (message) => new Error(message) });
 * const outcome = await turns.run({
 *   step: aiMessage.id,
 *   call: { id: toolCall.id, name: toolCall.name, input: toolCall.args },
 *   signal,
 *   execute: () => handler(request),
 *   output: (message) => String(message.content),
 * });
 * if (outcome.kind === 'threw') throw outcome.error;
 * ```
 * @see TurnSource
 */
export class StepTurns {
  readonly #source: TurnSource;
  readonly #open = new Map<unknown, OpenStep>();
  readonly #waiters = new SignalWaiters();

  /**
   * @throws the error `error` makes (the adapter's own) when `dispatcher` cannot open turns:
   *   "Expected `dispatcher` to be a Dispatcher (with openTurn), got `undefined` (undefined)".
   */
  constructor(options: {
    readonly dispatcher: TurnSource;
    /** Makes the adapter's own error from a message about a wrong option. */
    readonly error: (message: string) => Error;
  }) {
    const dispatcher: unknown = options.dispatcher;
    if (typeof (dispatcher as Partial<TurnSource> | undefined)?.openTurn !== 'function') {
      throw options.error(
        optionMessage({
          name: 'dispatcher',
          expected: 'a Dispatcher (with openTurn)',
          value: dispatcher,
        }),
      );
    }
    this.#source = options.dispatcher;
  }

  /**
   * Runs one call of a step through the step's turn.
   *
   * @throws the signal's reason (as a rejection) once the framework aborts the call, or the
   *   turn's hard error (`DispatchError`).
   */
  run<T>(options: StepCallOptions<T>): Promise<StepCallOutcome<T>> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    let outcome: StepCallOutcome<T> | undefined;
    const started = { value: false };
    const execute = async (_input: unknown, context: ToolContext): Promise<string | ToolOutput> => {
      signal?.throwIfAborted();
      started.value = true;
      try {
        const value = await options.execute(context);
        outcome = { kind: 'ran', value };
        return options.output(value);
      } catch (error) {
        outcome = { kind: 'threw', error };
        throw error;
      }
    };
    const ran = this.#runInStep(options.step, options.call, execute).then(
      (result): StepCallOutcome<T> => outcome ?? { kind: 'answered', result },
    );
    return signal === undefined
      ? ran
      : this.#waiters.whileWaiting({ promise: ran, signal, started });
  }

  #runInStep(
    step: unknown,
    call: ToolCall,
    execute: (input: unknown, context: ToolContext) => Promise<string | ToolOutput>,
  ): Promise<ToolResult> {
    let open = this.#open.get(step);
    if (open === undefined) {
      open = { turn: this.#source.openTurn(), running: 0 };
      this.#open.set(step, open);
    }
    const current = open;
    current.running += 1;
    const settled = () => {
      current.running -= 1;
      if (current.running > 0) return;
      if (this.#open.get(step) === current) this.#open.delete(step);
      // a hard error already reached every call of the turn through its `run`
      current.turn.close().catch(() => undefined);
    };
    const result = current.turn.run(call, execute);
    result.then(settled, settled);
    return result;
  }
}

/**
 * The calls waiting on each framework signal, with one `abort` listener per signal however many
 * calls share it (a graph's signal is shared by every call of a run).
 */
class SignalWaiters {
  readonly #waiting = new Map<
    AbortSignal,
    { readonly waiters: Set<() => void>; readonly onAbort: () => void }
  >();

  /**
   * `promise`, or a rejection with the signal's reason as soon as it aborts while the call is
   * still waiting (a call that has started is left to finish: the framework's tool has the
   * signal too).
   */
  whileWaiting<T>(options: {
    readonly promise: Promise<T>;
    readonly signal: AbortSignal;
    readonly started: { readonly value: boolean };
  }): Promise<T> {
    const { promise, signal, started } = options;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (!started.value) reject(signal.reason);
      };
      this.#add(signal, onAbort);
      promise.then(
        (value) => {
          this.#remove(signal, onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.#remove(signal, onAbort);
          reject(error);
        },
      );
    });
  }

  #add(signal: AbortSignal, waiter: () => void): void {
    let entry = this.#waiting.get(signal);
    if (entry === undefined) {
      const waiters = new Set<() => void>();
      const onAbort = () => {
        for (const wake of waiters) wake();
      };
      entry = { waiters, onAbort };
      this.#waiting.set(signal, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    entry.waiters.add(waiter);
  }

  #remove(signal: AbortSignal, waiter: () => void): void {
    const entry = this.#waiting.get(signal);
    if (entry === undefined) return;
    entry.waiters.delete(waiter);
    if (entry.waiters.size > 0) return;
    this.#waiting.delete(signal);
    signal.removeEventListener('abort', entry.onAbort);
  }
}
