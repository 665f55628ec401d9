import type { WhileStreaming } from '@toolwaves/core';
import {
  checkOptions,
  type OptionRule,
  optionRules,
  WHILE_STREAMING,
} from '@toolwaves/core/internal';
import { DispatchError, type DispatchEvent, type Dispatcher } from '@toolwaves/executor-rx';
import {
  type FinishReason,
  generateText,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  streamText,
  type ToolSet,
} from 'ai';
import { type DispatchedStep, dispatchStep } from './dispatch-step.js';
import { dispatchStreamedStep } from './dispatch-streamed-step.js';
import { DISPATCHER, invalidOptions } from './step-options.js';
import { toAiSdkTools } from './to-ai-sdk-tools.js';
import type { ToolLoopResult, ToolLoopStep } from './tool-loop-step.js';

type SetByTheLoop = 'model' | 'tools' | 'prompt' | 'messages' | 'abortSignal' | 'stopWhen';
type GenerateSettings = Omit<Parameters<typeof generateText>[0], SetByTheLoop>;
type StreamSettings = Omit<Parameters<typeof streamText>[0], SetByTheLoop>;

/**
 * Further options for every step's `generateText` (or `streamText`, with `stream: true`):
 * `system`, `temperature`, `providerOptions`, `maxRetries`, `headers`, ... — those both take.
 * The loop sets the model, the tools, the messages, the abort signal and the stop condition
 * itself.
 */
export type ToolLoopSettings = Pick<
  GenerateSettings,
  keyof GenerateSettings & keyof StreamSettings
> &
  Pick<StreamSettings, keyof GenerateSettings & keyof StreamSettings>;

/** Options of {@link runToolLoop}. Give `prompt` or `messages`, not both. */
export interface RunToolLoopOptions {
  readonly model: LanguageModel;
  /**
   * Runs each step's calls: its mode, planner, cap, hooks and recovery apply. The model is shown
   * the tools of its registry (through {@link toAiSdkTools}; with the dispatcher's
   * `modelOrdering`, each has `wait_for_previous`).
   */
  readonly dispatcher: Dispatcher;
  /**
   * Stream each step (`streamText`) and start each call the moment the model has written it,
   * while it writes the rest (`dispatchStream`: eager, conflicting calls in order). Default
   * false: wait for the whole step (`generateText`) and run it in the dispatcher's mode.
   */
  readonly stream?: boolean | undefined;
  /**
   * With `stream: true`: which calls may start before the model's message is complete. Default
   * the dispatcher's (`'read-only'` unless it says otherwise): writes and calls that are not
   * concurrency-safe wait for the step's end, so a stream that fails mid-message leaves no side
   * effect behind; `'all'` starts every call as soon as the rules allow.
   */
  readonly whileStreaming?: WhileStreaming | undefined;
  /** A user message to start from. */
  readonly prompt?: string | undefined;
  /** A conversation to continue. */
  readonly messages?: readonly ModelMessage[] | undefined;
  /** The most model calls; an integer from 1 up. Default 20. */
  readonly maxSteps?: number | undefined;
  /** Cancels the model call or the dispatch in progress. */
  readonly signal?: AbortSignal | undefined;
  /** Called after each step, its tools answered, before the next model call. */
  readonly onStep?: ((step: ToolLoopStep) => void | PromiseLike<void>) | undefined;
  /** Sees every dispatch event of every step; if it throws, the loop stops with its error. */
  readonly onEvent?: ((event: DispatchEvent, stepNumber: number) => void) | undefined;
  /** Further `generateText` / `streamText` options for every step. */
  readonly settings?: ToolLoopSettings | undefined;
}

const DEFAULT_MAX_STEPS = 20;

/** One model call per `generateText`: the loop is ours. */
const oneStep = (): boolean => true;

/**
 * The agent loop in one call: ask the model (`generateText`, the dispatcher's tools without
 * `execute`), run the calls of its step through the dispatcher — planned into waves, in
 * parallel under the cap when the dispatcher is parallel —, answer them in call order, and ask
 * again, until the model answers without calling a tool or `maxSteps` model calls were made.
 * Every call the model made is answered in the messages, also at `maxSteps`. With
 * `stream: true` each step streams (`streamText`) and each call starts as soon as the model has
 * written it and the earlier calls it conflicts with have ended.
 *
 * @throws ToolLoopError `invalid_options` naming a bad option, before any model call.
 * @throws DispatchError (as a rejection) for a hard error of a dispatch, and the AI SDK's errors
 *   for a failed model call (streamed or not).
 * @example
 * ```ts
 * const registry = new ToolRegistry().add(readFile).add(writeFile);
 * const dispatcher = new Dispatcher({ registry, mode: 'parallel', maxConcurrency: 4 });
 * const { text, steps } = await runToolLoop({
 *   model: openai('gpt-5'),
 *   dispatcher,
 *   stream: true,
 *   prompt: 'Rename the `user` field to `account` in every file under src/',
 *   maxSteps: 10,
 * });
 * ```
 * @see dispatchStep for one finished step; dispatchStreamedStep for one streamed step.
 */
export async function runToolLoop(options: RunToolLoopOptions): Promise<ToolLoopResult> {
  const { model, dispatcher, signal, onStep, onEvent, settings, whileStreaming } = options;
  const maxSteps = checked(options);
  // With the dispatcher's `modelOrdering`, the model is offered `wait_for_previous` on each tool.
  const tools = toAiSdkTools(dispatcher.registry, { modelOrdering: dispatcher.modelOrdering });
  const start: ModelMessage[] =
    options.messages === undefined
      ? [{ role: 'user', content: options.prompt ?? '' }]
      : [...options.messages];
  const added: ModelMessage[] = [];
  const steps: ToolLoopStep[] = [];
  for (let stepNumber = 0; stepNumber < maxSteps; stepNumber += 1) {
    const request: StepRequest = {
      settings,
      model,
      tools,
      messages: [...start, ...added],
      dispatcher,
      signal,
      onEvent: onEvent === undefined ? undefined : (event) => onEvent(event, stepNumber),
      whileStreaming,
    };
    const { dispatched, text, finishReason, usage } = await (options.stream === true
      ? streamedStep(request)
      : wholeStep(request));
    added.push(...dispatched.messages);
    const step: ToolLoopStep = {
      stepNumber,
      text,
      finishReason,
      usage,
      calls: dispatched.calls,
      results: dispatched.results,
      messages: dispatched.messages,
    };
    steps.push(step);
    await onStep?.(step);
    if (dispatched.calls.length === 0) break;
  }
  const last = steps.at(-1)!;
  return {
    text: last.text,
    finishReason: last.finishReason,
    steps,
    messages: [...start, ...added],
    responseMessages: added,
  };
}

/** What one step of the loop needs. */
interface StepRequest {
  readonly settings: ToolLoopSettings | undefined;
  readonly model: LanguageModel;
  readonly tools: ToolSet;
  readonly messages: ModelMessage[];
  readonly dispatcher: Dispatcher;
  readonly signal: AbortSignal | undefined;
  readonly onEvent: ((event: DispatchEvent) => void) | undefined;
  readonly whileStreaming: WhileStreaming | undefined;
}

/** What one step of the loop gave. */
interface StepOutcome {
  readonly dispatched: DispatchedStep;
  readonly text: string;
  readonly finishReason: FinishReason;
  readonly usage: LanguageModelUsage;
}

/** `generateText`, then the step's calls in the dispatcher's mode. */
async function wholeStep(request: StepRequest): Promise<StepOutcome> {
  const { settings, model, tools, messages, dispatcher, signal, onEvent } = request;
  const result = await generateText({
    ...settings,
    model,
    tools,
    messages,
    stopWhen: oneStep,
    ...(signal === undefined ? {} : { abortSignal: signal }),
  });
  const dispatched = await dispatchStep({ dispatcher, step: result, signal, onEvent });
  return { dispatched, text: result.text, finishReason: result.finishReason, usage: result.usage };
}

/** `streamText`, each call dispatched as the model writes it. */
async function streamedStep(request: StepRequest): Promise<StepOutcome> {
  const { settings, model, tools, messages, dispatcher, signal, onEvent, whileStreaming } = request;
  const result = streamText({
    ...settings,
    model,
    tools,
    messages,
    stopWhen: oneStep,
    // A failed stream rejects the step below (with the AI SDK's error): nothing to log here.
    onError: () => {},
    ...(signal === undefined ? {} : { abortSignal: signal }),
  });
  let dispatched: DispatchedStep;
  try {
    dispatched = await dispatchStreamedStep({
      dispatcher,
      step: result,
      signal,
      onEvent,
      ...(whileStreaming === undefined ? {} : { whileStreaming }),
    });
  } catch (error) {
    // The model's own failure passes through unchanged, as with `generateText`.
    if (error instanceof DispatchError && error.code === 'source_failed') throw error.cause;
    throw error;
  }
  return {
    dispatched,
    text: await result.text,
    finishReason: await result.finishReason,
    usage: await result.usage,
  };
}

/** What each option must be (`settings` are the AI SDK's own: passed on as they are). */
const RULES: Readonly<Record<keyof RunToolLoopOptions, OptionRule<unknown>>> = {
  model: {
    expected: 'a language model',
    test: (value): value is unknown => value !== undefined && value !== null,
  },
  dispatcher: DISPATCHER,
  stream: optionRules.boolean,
  whileStreaming: WHILE_STREAMING,
  prompt: optionRules.string,
  messages: { ...optionRules.array, expected: 'an array of model messages' },
  maxSteps: optionRules.integerFrom(1),
  signal: { expected: 'an AbortSignal', test: (value) => value instanceof AbortSignal },
  onStep: optionRules.function,
  onEvent: optionRules.function,
  settings: optionRules.object,
};

/** Checks the options (an unknown one refused with a "did you mean"); returns `maxSteps`. */
function checked(options: RunToolLoopOptions): number {
  checkOptions({
    subject: 'runToolLoop',
    options,
    rules: RULES,
    required: ['model', 'dispatcher'],
    error: invalidOptions,
  });
  if ((options.prompt === undefined) === (options.messages === undefined)) {
    throw invalidOptions(
      options.prompt === undefined
        ? 'Expected `prompt` or `messages`, got neither'
        : 'Expected `prompt` or `messages`, got both',
    );
  }
  return options.maxSteps ?? DEFAULT_MAX_STEPS;
}
