import { checkOption } from './check-option.js';
import { checkOptions } from './check-options.js';
import { type OptionRule, optionRules } from './option-rule.js';
import { SignalWaiters } from './signal-waiters.js';
import type { ToolCall } from './tool-call.js';
import type { ToolContext } from './tool-context.js';
import type { ToolOutput } from './tool-output.js';
import type { ToolResult } from './tool-result.js';
import { invalidOptions } from './toolwaves-error.js';
import type { WhileStreaming } from './while-streaming.js';

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
  /**
   * `modelOrdering`: the turn's calls may carry the model's `wait_for_previous` (an edge);
   * `whileStreaming`: which calls may start before the turn is closed.
   */
  openTurn(options?: {
    readonly modelOrdering?: boolean;
    readonly whileStreaming?: WhileStreaming;
  }): TurnLike;
  /** Whether the dispatcher's calls carry `wait_for_previous` by default (its option). */
  readonly modelOrdering?: boolean;
}

/** Options of {@link StepTurns.run}: one call of a framework's step. */
export interface StepCallOptions<T> {
  /**
   * The framework's run the call belongs to (its config, run context, or anything the run's
   * calls share and no other run has), compared with `===`: calls of different runs never share
   * a turn, even when their steps and call ids are equal (threads forked from one checkpoint).
   * Held weakly. Omitted: every call counts as one run's.
   */
  readonly run?: object | undefined;
  /**
   * The framework's step (one model response) the call belongs to within its run: calls of the
   * same step share a turn. Compared with `===` (an id, or an object the framework shares between
   * the calls).
   */
  readonly step: unknown;
  readonly call: ToolCall;
  /**
   * The framework's abort signal for this call: once aborted, a call still waiting is answered
   * `aborted` and the framework's implementation never runs.
   */
  readonly signal?: AbortSignal | undefined;
  /** Runs the call the framework's way (its own tool) once toolwaves lets it start. */
  readonly execute: (context: ToolContext) => Promise<T>;
  /** The framework's answer as toolwaves records it (events, hooks, instrumentation). */
  readonly output: (value: T) => string | ToolOutput;
  /**
   * Whether something the implementation threw is the framework's control flow rather than an
   * error (LangGraph's `GraphInterrupt`, a parent `Command`): it is handed back (`threw`) as it
   * is, and toolwaves records the call as answered, not failed (no recovery retries it, no
   * failure policy skips the calls after it).
   */
  readonly controlFlow?: ((error: unknown) => boolean) | undefined;
}

/**
 * How a call of a framework's step ended:
 * - `ran`: the framework's implementation returned `value` (hand it back to the framework as it is);
 * - `threw`: the framework's implementation threw `error` (rethrow it: it is that tool's error);
 * - `answered`: toolwaves answered without the implementation's answer (invalid input, a hook
 *   blocked it, it timed out, ...): `result` is that soft error;
 * - `aborted`: the framework's signal aborted while the call waited: it never ran, `reason` is
 *   the signal's (answer it as the framework answers a tool that its signal stopped).
 */
export type StepCallOutcome<T> =
  | { readonly kind: 'ran'; readonly value: T }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'answered'; readonly result: ToolResult }
  | { readonly kind: 'aborted'; readonly reason: unknown };

/** One attempt of a step: its turn, the call ids it holds, and when all its calls have settled. */
interface StepAttempt {
  readonly turn: TurnLike;
  readonly ids: Set<string>;
  running: number;
  /** Resolves once every call of this attempt has settled (whatever its outcome). */
  readonly settled: Promise<void>;
  readonly settle: () => void;
  /** The previous attempt's `settled`: this attempt's calls are handed to the turn after it. */
  readonly after: Promise<void> | undefined;
}

type Execute = (input: unknown, context: ToolContext) => Promise<string | ToolOutput>;

/** The run of calls that name none. */
const NO_RUN = {};

/**
 * The turns of a framework that executes its tools itself (LangChain, OpenAI Agents, the AI SDK
 * with `execute`): the calls of one step of one run go, in the order the framework starts them,
 * into one turn of the dispatcher, which decides when each may start (two edits of one file never
 * overlap; a read of another file runs beside them). A step's turn opens with its first call and
 * closes as soon as none of its calls is running or waiting: a later call of the same step then
 * opens a new turn, which is just as safe, since everything before it has ended.
 *
 * A call whose id the step's open turn already holds is a new attempt of the step (a node retried
 * by its retry policy, a task run again): it opens the step's next turn, whose calls start only
 * once every call of the previous attempt has settled, so the two attempts never overlap and the
 * retry is answered, never refused as a duplicate.
 *
 * @example
 * ```ts
 * const turns = new StepTurns({ dispatcher, error: (message) => new Error(message) });
 * const outcome = await turns.run({
 *   run: config.signal,
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
  readonly #runs = new WeakMap<object, Map<unknown, StepAttempt>>();
  readonly #waiters = new SignalWaiters();
  readonly #modelOrdering: boolean;

  /**
   * @throws the error `error` makes (the adapter's own) when `dispatcher` cannot open turns:
   *   "Expected `dispatcher` to be a Dispatcher (with openTurn), got `undefined` (undefined)".
   */
  constructor(options: {
    readonly dispatcher: TurnSource;
    /** Makes the adapter's own error from a message about a wrong option. */
    readonly error: (message: string) => Error;
    /**
     * The model was given `wait_for_previous` (the adapter's `modelOrdering`): the turns are
     * opened with `{ modelOrdering: true }`, so the dispatcher takes it out of each call and
     * makes `true` an edge to every earlier call of the step. Default `false`.
     */
    readonly modelOrdering?: boolean | undefined;
  }) {
    checkOptions({
      subject: 'StepTurns',
      options,
      rules: {
        dispatcher: optionRules.dispatcher,
        error: optionRules.function,
        modelOrdering: optionRules.boolean,
      },
      required: ['error'],
      error: typeof options?.error === 'function' ? options.error : invalidOptions,
    });
    this.#source = checkOption({
      name: 'dispatcher',
      value: options.dispatcher,
      rule: optionRules.dispatcher as OptionRule<TurnSource>,
      error: options.error,
    });
    this.#modelOrdering = options.modelOrdering === true;
  }

  /**
   * Runs one call of a step through the step's turn.
   *
   * @throws the turn's hard error (`DispatchError`), as a rejection.
   */
  run<T>(options: StepCallOptions<T>): Promise<StepCallOutcome<T>> {
    const { signal, controlFlow } = options;
    const aborted = (): StepCallOutcome<T> => ({ kind: 'aborted', reason: signal?.reason });
    if (signal?.aborted) return Promise.resolve(aborted());
    let outcome: StepCallOutcome<T> | undefined;
    const started = { value: false };
    const execute: Execute = async (_input, context) => {
      signal?.throwIfAborted();
      started.value = true;
      try {
        const value = await options.execute(context);
        outcome = { kind: 'ran', value };
        return options.output(value);
      } catch (error) {
        outcome = { kind: 'threw', error };
        if (controlFlow?.(error) === true) return { content: describeControlFlow(error) };
        throw error;
      }
    };
    const ran = this.#runInStep(options, execute).then(
      (result): StepCallOutcome<T> => outcome ?? { kind: 'answered', result },
    );
    return signal === undefined
      ? ran
      : this.#waiters.whileWaiting({ promise: ran, signal, started, aborted });
  }

  #runInStep(
    options: Pick<StepCallOptions<unknown>, 'run' | 'step' | 'call'>,
    execute: Execute,
  ): Promise<ToolResult> {
    const { step, call } = options;
    const run = options.run ?? NO_RUN;
    let steps = this.#runs.get(run);
    if (steps === undefined) {
      steps = new Map();
      this.#runs.set(run, steps);
    }
    let attempt = steps.get(step);
    if (attempt === undefined || attempt.ids.has(call.id)) {
      attempt = this.#openAttempt(attempt?.settled);
      steps.set(step, attempt);
    }
    const current = attempt;
    const runSteps = steps;
    current.ids.add(call.id);
    current.running += 1;
    const settled = () => {
      current.running -= 1;
      if (current.running > 0) return;
      if (runSteps.get(step) === current) runSteps.delete(step);
      current.settle();
      // a hard error already reached every call of the turn through its `run`
      current.turn.close().catch(() => undefined);
    };
    // Handed to the turn here, or in a callback registered here: either way the call's async
    // context is the framework's, where it asked for the call.
    const result =
      current.after === undefined
        ? current.turn.run(call, execute)
        : current.after.then(() => current.turn.run(call, execute));
    result.then(settled, settled);
    return result;
  }

  #openAttempt(after: Promise<void> | undefined): StepAttempt {
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    // The frameworks behind these turns (LangChain, OpenAI Agents, the AI SDK) start a step's
    // tools themselves, once they have the calls, and a step's turn closes only when its calls
    // have settled: holding a write until `close()` would wait forever. So every call starts as
    // the rules allow ('all'); a framework that starts tools while the model still writes gives
    // no end of message to wait for (README: Side effects held back while the model writes).
    const turn = this.#source.openTurn(
      this.#modelOrdering
        ? { modelOrdering: true, whileStreaming: 'all' }
        : { whileStreaming: 'all' },
    );
    return { turn, ids: new Set(), running: 0, settled, settle, after };
  }
}

/** What toolwaves records of a call that ended in the framework's control flow. */
function describeControlFlow(error: unknown): string {
  const name = (error as { readonly name?: unknown } | null)?.name;
  return `(${typeof name === 'string' && name !== '' ? name : 'control flow'})`;
}
