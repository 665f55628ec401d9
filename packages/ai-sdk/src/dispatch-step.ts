import type { ToolCall, ToolResult } from '@toolwaves/core';
import type { DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import type { ModelMessage } from 'ai';
import { type AiSdkToolCallLike, fromAiSdkToolCalls } from './from-ai-sdk-tool-calls.js';
import { stepMessages } from './step-messages.js';
import { checkStepOptions } from './step-options.js';

/**
 * One model step as the AI SDK reports it: a `generateText` result (one step, the default
 * `stopWhen`), a `StepResult`, or the awaited `toolCalls` and `response` of `streamText`.
 */
export interface AiSdkStepLike {
  readonly toolCalls: readonly AiSdkToolCallLike[];
  readonly response: { readonly messages: readonly ModelMessage[] };
}

/** Options of {@link dispatchStep}. */
export interface DispatchStepOptions {
  readonly dispatcher: Dispatcher;
  readonly step: AiSdkStepLike;
  /** Cancels the dispatch (the hard error `cancelled`). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Sees every event of the dispatch: the plan, waves, call starts and ends. If it throws, the
   * dispatch stops (the tools' signals abort) and `dispatchStep` rejects with its error.
   */
  readonly onEvent?: ((event: DispatchEvent) => void) | undefined;
}

/** What {@link dispatchStep} did. */
export interface DispatchedStep {
  /** The calls dispatched, in the model's order. */
  readonly calls: readonly ToolCall[];
  /** One result per call, in the same order. */
  readonly results: readonly ToolResult[];
  /**
   * What to append to the conversation: the step's response messages, then one `tool` message
   * answering every call in call order. Answers the AI SDK wrote itself for calls it could not
   * parse are dropped from the response messages: the dispatcher answered those calls too, and a
   * call must be answered once.
   */
  readonly messages: readonly ModelMessage[];
}

/**
 * Runs one step's tool calls through a dispatcher — its planner, its cap, its hooks and events
 * — and builds the messages that answer them, in call order, for the next model call.
 *
 * @throws ToolLoopError `invalid_options` (as a rejection) for a wrong or unknown option,
 *   naming it and its value.
 * @throws DispatchError (as a rejection) for a hard error of the dispatch (cancelled, aborted by
 *   a hook, recovery exhausted); no messages are produced then.
 * @example
 * ```ts
 * const tools = toAiSdkTools(registry);
 * const result = streamText({ model, tools, messages });
 * for await (const text of result.textStream) process.stdout.write(text);
 * const step = { toolCalls: await result.toolCalls, response: await result.response };
 * const { messages: added } = await dispatchStep({ dispatcher, step, signal });
 * messages.push(...added);
 * ```
 * @see dispatchStreamedStep to start each call as `streamText` writes it.
 * @see runToolLoop for the whole loop.
 */
export async function dispatchStep(options: DispatchStepOptions): Promise<DispatchedStep> {
  checkStepOptions({ subject: 'dispatchStep', options });
  const { dispatcher, step, signal, onEvent } = options;
  const calls = fromAiSdkToolCalls(step.toolCalls);
  if (calls.length === 0) return { calls, results: [], messages: [...step.response.messages] };
  const results = await dispatcher.dispatch(calls, { signal, onEvent });
  return {
    calls,
    results,
    messages: stepMessages({ responseMessages: step.response.messages, calls, results }),
  };
}
