import type { ToolCall, ToolResult, WhileStreaming } from '@toolwaves/core';
import type { DispatchEvent, Dispatcher } from '@toolwaves/executor-rx';
import type { ModelMessage } from 'ai';
import type { DispatchedStep } from './dispatch-step.js';
import { type AiSdkToolCallLike, fromAiSdkToolCalls } from './from-ai-sdk-tool-calls.js';
import { stepMessages } from './step-messages.js';
import { checkStepOptions } from './step-options.js';

/**
 * One `streamText` step as it streams (a `StreamTextResult` fits): its `fullStream` parts, of
 * which the `tool-call` parts are read, and the step's `response` once it has ended.
 */
export interface AiSdkStreamedStepLike {
  readonly fullStream: AsyncIterable<{ readonly type: string }>;
  readonly response: PromiseLike<{ readonly messages: readonly ModelMessage[] }>;
}

/** Options of {@link dispatchStreamedStep}. */
export interface DispatchStreamedStepOptions {
  readonly dispatcher: Dispatcher;
  /** A `streamText` result of one step (tools without `execute`: see {@link toAiSdkTools}). */
  readonly step: AiSdkStreamedStepLike;
  /** Cancels the dispatch (the hard error `cancelled`) and stops reading the stream. */
  readonly signal?: AbortSignal | undefined;
  /** Sees every event of the dispatch: each call's start (and what it waited for) and end. */
  readonly onEvent?: ((event: DispatchEvent) => void) | undefined;
  /**
   * Which calls may start before the model's message is complete (the stream's `finish`). Default
   * the dispatcher's (`'read-only'` unless it says otherwise): a call that is not a
   * concurrency-safe read waits for the end, and never starts from a stream that reports an
   * error or is aborted; `'all'` starts every call as soon as the rules allow.
   */
  readonly whileStreaming?: WhileStreaming | undefined;
}

/**
 * Runs the tool calls of a `streamText` step as their `tool-call` parts arrive: each goes to
 * `dispatcher.dispatchStream` the moment the model has written it, and starts as soon as the
 * earlier calls it conflicts with have ended (two edits of one file never overlap), while the
 * model is still writing the rest. Once the stream has ended, resolves with the results in call
 * order and the messages that answer them, as {@link dispatchStep} does for a finished step.
 * The step's text can be read at the same time (`result.textStream`: every read of a
 * `streamText` result is its own copy of the stream).
 *
 * @throws ToolLoopError `invalid_options` (as a rejection) for a wrong or unknown option,
 *   naming it and its value.
 * @throws DispatchError (as a rejection) for a hard error of the dispatch; `source_failed`, with
 *   the AI SDK's error as its `cause`, when the model's stream reports an error.
 * @example
 * ```ts
 * const result = streamText({ model, tools: toAiSdkTools(registry), messages });
 * const step = dispatchStreamedStep({ dispatcher, step: result, signal });
 * for await (const text of result.textStream) process.stdout.write(text);
 * messages.push(...(await step).messages);
 * ```
 * @see runToolLoop with `stream: true` for the whole loop.
 */
export async function dispatchStreamedStep(
  options: DispatchStreamedStepOptions,
): Promise<DispatchedStep> {
  checkStepOptions({ subject: 'dispatchStreamedStep', options });
  const { dispatcher, step, signal, onEvent, whileStreaming } = options;
  const calls: ToolCall[] = [];
  const results: ToolResult[] = await dispatcher.dispatchStream(toolCallsOf(step, calls), {
    signal,
    onEvent,
    ...(whileStreaming === undefined ? {} : { whileStreaming }),
  });
  const response = await step.response;
  return {
    calls,
    results,
    messages: stepMessages({ responseMessages: response.messages, calls, results }),
  };
}

/** The step's calls as its `tool-call` parts arrive, each also recorded in `seen`. */
async function* toolCallsOf(
  step: AiSdkStreamedStepLike,
  seen: ToolCall[],
): AsyncGenerator<ToolCall> {
  for await (const part of step.fullStream) {
    if (part.type === 'error') throw (part as { readonly error?: unknown }).error;
    // An aborted stream ends without its message: what was held back for its end must not start.
    if (part.type === 'abort')
      throw new Error('The model stream was aborted before its message was complete');
    if (part.type !== 'tool-call') continue;
    for (const call of fromAiSdkToolCalls([part as unknown as AiSdkToolCallLike])) {
      seen.push(call);
      yield call;
    }
  }
}
