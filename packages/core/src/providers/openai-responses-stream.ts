import type { ToolCall } from '../tool-call.js';
import { ToolwavesError } from '../toolwaves-error.js';
import { PendingCalls } from './pending-calls.js';
import { type ToolCallDecoder, type ToolCallStream, teeToolCalls } from './tee-tool-calls.js';

/**
 * An event of an OpenAI Responses API stream (the SDK's `ResponseStreamEvent` fits it). Only
 * the function-call events, the end of the response and errors are read; every other event
 * passes through untouched.
 */
export interface OpenAIResponsesStreamEvent {
  readonly type: string;
}

interface FunctionCallItem {
  readonly type: 'function_call';
  readonly id?: string;
  readonly call_id: string;
  readonly name: string;
  readonly arguments: string;
}

interface OutputItemEvent {
  readonly type: 'response.output_item.added' | 'response.output_item.done';
  readonly output_index: number;
  readonly item: { readonly type: string };
}

interface ArgumentsEvent {
  readonly type: 'response.function_call_arguments.delta' | 'response.function_call_arguments.done';
  readonly output_index: number;
  readonly delta?: string;
  readonly arguments?: string;
}

interface ErrorEvent {
  readonly type: 'error';
  readonly code?: string | null;
  readonly message?: string;
}

interface FailedEvent {
  readonly type: 'response.failed';
  readonly response?: {
    readonly error?: { readonly code?: string; readonly message?: string } | null;
  };
}

/**
 * Tool calls from an OpenAI Responses API stream (`responses.create({ stream: true })`), each
 * yielded the moment its arguments are complete (`response.function_call_arguments.done` or
 * `response.output_item.done`, whichever comes first), in output order, while `events` still
 * gives the caller every event. A call's id is its `call_id` (what a `function_call_output`
 * answers). Arguments that are not valid JSON become a {@link MalformedArguments} input; a call
 * left open by `response.incomplete` or by the stream's end is answered as incomplete. An
 * `error` or `response.failed` event makes `calls` fail with a {@link ToolwavesError} (code
 * `provider_error`) carrying the provider's message.
 *
 * @example
 * ```ts
 * const stream = await openai.responses.create({ model, input, tools, stream: true });
 * const { events, calls } = toolCallsFromOpenAIResponsesStream(stream);
 * const results = dispatcher.dispatchStream(calls);
 * for await (const event of events) if (event.type === 'response.output_text.delta') write(event.delta);
 * ```
 * @see ToolCallStream
 */
export function toolCallsFromOpenAIResponsesStream<E extends OpenAIResponsesStreamEvent>(
  stream: AsyncIterable<E>,
): ToolCallStream<E> {
  return teeToolCalls<E>({ source: stream, decoder: responsesDecoder() });
}

function isFunctionCall(item: { readonly type: string }): item is FunctionCallItem {
  return item.type === 'function_call';
}

function responsesDecoder(): ToolCallDecoder<OpenAIResponsesStreamEvent> {
  const pending = new PendingCalls();
  return {
    read(event: OpenAIResponsesStreamEvent): readonly ToolCall[] {
      switch (event.type) {
        case 'response.output_item.added': {
          const { item, output_index } = event as OutputItemEvent;
          if (isFunctionCall(item)) {
            pending.start(output_index, {
              position: output_index,
              id: item.call_id,
              name: item.name,
              arguments: item.arguments,
            });
          }
          break;
        }
        case 'response.function_call_arguments.delta': {
          const { output_index, delta } = event as ArgumentsEvent;
          pending.append(output_index, delta ?? '');
          break;
        }
        case 'response.function_call_arguments.done': {
          const { output_index, arguments: text } = event as ArgumentsEvent;
          pending.complete(output_index, text);
          break;
        }
        case 'response.output_item.done': {
          const { item, output_index } = event as OutputItemEvent;
          if (isFunctionCall(item)) {
            pending.update(output_index, { id: item.call_id, name: item.name });
            pending.complete(output_index, item.arguments);
          }
          break;
        }
        case 'response.completed':
          pending.completeAll();
          break;
        case 'response.incomplete':
          pending.abandonAll();
          break;
        case 'error': {
          const { code, message } = event as ErrorEvent;
          throw providerError(message, code);
        }
        case 'response.failed': {
          const error = (event as FailedEvent).response?.error;
          throw providerError(error?.message, error?.code);
        }
      }
      return pending.take();
    },
    end(): readonly ToolCall[] {
      pending.abandonAll();
      return pending.take();
    },
  };
}

function providerError(
  message: string | undefined,
  code: string | null | undefined,
): ToolwavesError {
  const detail = code === undefined || code === null ? '' : ` (${code})`;
  return new ToolwavesError({
    code: 'provider_error',
    message: `The OpenAI Responses stream reported an error${detail}: ${message ?? 'no message'}`,
  });
}
