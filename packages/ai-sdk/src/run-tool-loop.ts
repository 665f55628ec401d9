import { checkOption, describeValue, optionRules, type ToolRegistry } from '@toolwaves/core';
import type { DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import { generateText, type LanguageModel, type ModelMessage } from 'ai';
import { dispatchStep } from './dispatch-step.js';
import { toAiSdkTools } from './to-ai-sdk-tools.js';
import { ToolLoopError } from './tool-loop-error.js';
import type { ToolLoopResult, ToolLoopStep } from './tool-loop-step.js';

/**
 * Further `generateText` options for every step (`system`, `temperature`, `providerOptions`,
 * `maxRetries`, `headers`, ...). The loop sets the model, the tools, the messages, the abort
 * signal and the stop condition itself.
 */
export type ToolLoopSettings = Omit<
  Parameters<typeof generateText>[0],
  'model' | 'tools' | 'prompt' | 'messages' | 'abortSignal' | 'stopWhen'
>;

/** Options of {@link runToolLoop}. Give `prompt` or `messages`, not both. */
export interface RunToolLoopOptions {
  readonly model: LanguageModel;
  /** The tools the model may call (shown to it through {@link toAiSdkTools}). */
  readonly registry: ToolRegistry;
  /** Runs each step's calls: its mode, planner, cap, hooks and recovery apply. */
  readonly dispatcher: Dispatcher;
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
  /** Further `generateText` options for every step. */
  readonly settings?: ToolLoopSettings | undefined;
}

const DEFAULT_MAX_STEPS = 20;

/** One model call per `generateText`: the loop is ours. */
const oneStep = (): boolean => true;

/**
 * The agent loop in one call: ask the model (`generateText`, the registry's tools without
 * `execute`), run the calls of its step through the dispatcher — planned into waves, in
 * parallel under the cap when the dispatcher is parallel —, answer them in call order, and ask
 * again, until the model answers without calling a tool or `maxSteps` model calls were made.
 * Every call the model made is answered in the messages, also at `maxSteps`.
 *
 * @throws ToolLoopError `invalid_options` naming a bad option, before any model call.
 * @throws DispatchError (as a rejection) for a hard error of a dispatch, and the AI SDK's errors
 *   for a failed model call.
 * @example
 * ```ts
 * const registry = new ToolRegistry().add(readFile).add(writeFile);
 * const dispatcher = new Dispatcher({ registry, mode: 'parallel', maxConcurrency: 4 });
 * const { text, steps } = await runToolLoop({
 *   model: openai('gpt-5'),
 *   registry,
 *   dispatcher,
 *   prompt: 'Rename the `user` field to `account` in every file under src/',
 *   maxSteps: 10,
 * });
 * ```
 * @see dispatchStep for one step, e.g. with `streamText`.
 */
export async function runToolLoop(options: RunToolLoopOptions): Promise<ToolLoopResult> {
  const { model, registry, dispatcher, signal, onStep, onEvent, settings } = options;
  const maxSteps = checked(options);
  const tools = toAiSdkTools(registry);
  const start: ModelMessage[] =
    options.messages === undefined
      ? [{ role: 'user', content: options.prompt ?? '' }]
      : [...options.messages];
  const added: ModelMessage[] = [];
  const steps: ToolLoopStep[] = [];
  for (let stepNumber = 0; stepNumber < maxSteps; stepNumber += 1) {
    const result = await generateText({
      ...settings,
      model,
      tools,
      messages: [...start, ...added],
      stopWhen: oneStep,
      ...(signal === undefined ? {} : { abortSignal: signal }),
    });
    const dispatched = await dispatchStep({
      dispatcher,
      step: result,
      signal,
      onEvent: onEvent === undefined ? undefined : (event) => onEvent(event, stepNumber),
    });
    added.push(...dispatched.messages);
    const step: ToolLoopStep = {
      stepNumber,
      text: result.text,
      finishReason: result.finishReason,
      usage: result.usage,
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

function invalid(message: string): ToolLoopError {
  return new ToolLoopError({ code: 'invalid_options', message });
}

function checked(options: RunToolLoopOptions): number {
  checkOption({
    name: 'options',
    subject: 'the options of runToolLoop',
    value: options,
    rule: optionRules.object,
    error: invalid,
  });
  const { model, registry, dispatcher, prompt, messages, maxSteps } = options;
  if (model === undefined || model === null) {
    throw invalid(`Expected \`model\` to be a language model, got ${describeValue(model)}`);
  }
  if (typeof registry?.names !== 'function' || typeof registry.get !== 'function') {
    throw invalid(`Expected \`registry\` to be a ToolRegistry, got ${describeValue(registry)}`);
  }
  if (typeof dispatcher?.dispatch !== 'function' || typeof dispatcher.run !== 'function') {
    throw invalid(`Expected \`dispatcher\` to be a Dispatcher, got ${describeValue(dispatcher)}`);
  }
  if ((prompt === undefined) === (messages === undefined)) {
    throw invalid(
      prompt === undefined
        ? 'Expected `prompt` or `messages`, got neither'
        : 'Expected `prompt` or `messages`, got both',
    );
  }
  if (prompt !== undefined) {
    checkOption({ name: 'prompt', value: prompt, rule: optionRules.string, error: invalid });
  }
  if (messages !== undefined) {
    const rule = { ...optionRules.array, expected: 'an array of model messages' };
    checkOption({ name: 'messages', value: messages, rule, error: invalid });
  }
  return checkOption({
    name: 'maxSteps',
    value: maxSteps,
    rule: optionRules.integerFrom(1),
    default: DEFAULT_MAX_STEPS,
    error: invalid,
  });
}
