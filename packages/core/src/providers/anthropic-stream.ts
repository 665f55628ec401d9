import type { ToolCall } from '../tool-call.js';
import { ToolwavesError } from '../toolwaves-error.js';
import { PendingCalls } from './pending-calls.js';
import { type ToolCallDecoder, type ToolCallStream, teeToolCalls } from './tee-tool-calls.js';

/**
 * An event of an Anthropic Messages stream (the SDK's `RawMessageStreamEvent` or
 * `MessageStreamEvent` fits it). Only `tool_use` blocks, their `input_json_delta`s and `error`
 * events are read; every other event passes through untouched.
 */
export interface AnthropicStreamEvent {
  readonly type: string;
}

interface BlockStartEvent {
  readonly type: 'content_block_start';
  readonly index: number;
  readonly content_block: {
    readonly type: string;
    readonly id?: string;
    readonly name?: string;
    readonly input?: unknown;
  };
}

interface BlockDeltaEvent {
  readonly type: 'content_block_delta';
  readonly index: number;
  readonly delta: { readonly type: string; readonly partial_json?: string };
}

interface BlockStopEvent {
  readonly type: 'content_block_stop';
  readonly index: number;
}

interface ErrorEvent {
  readonly type: 'error';
  readonly error?: { readonly type?: string; readonly message?: string };
}

/**
 * Tool calls from an Anthropic Messages stream (`messages.create({ stream: true })` or
 * `messages.stream()`), each yielded at its `tool_use` block's `content_block_stop`, in block
 * order, while `events` still gives the caller every event (text deltas, usage, the stop
 * reason). The arguments are the block's `input_json_delta` pieces put together; JSON that does
 * not parse becomes a {@link MalformedArguments} input (a soft error naming the problem), and a
 * block the stream never closed is answered as incomplete. An `error` event makes `calls` fail
 * with a {@link ToolwavesError} (code `provider_error`) carrying the provider's message.
 *
 * @example
 * ```ts
 * const stream = await anthropic.messages.create({ model, max_tokens, messages, tools, stream: true });
 * const { events, calls } = toolCallsFromAnthropicStream(stream);
 * const results = dispatcher.dispatchStream(calls);
 * for await (const event of events) if (event.type === 'content_block_delta') show(event.delta);
 * messages.push(toAnthropicToolResultMessage(await results));
 * ```
 * @see ToolCallStream
 * @see fromAnthropicContent for a finished message
 */
export function toolCallsFromAnthropicStream<E extends AnthropicStreamEvent>(
  stream: AsyncIterable<E>,
): ToolCallStream<E> {
  return teeToolCalls<E>({ source: stream, decoder: anthropicDecoder() });
}

function anthropicDecoder(): ToolCallDecoder<AnthropicStreamEvent> {
  const pending = new PendingCalls();
  return {
    read(event: AnthropicStreamEvent): readonly ToolCall[] {
      switch (event.type) {
        case 'content_block_start': {
          const { index, content_block: block } = event as BlockStartEvent;
          if (block.type === 'tool_use') {
            pending.start(index, {
              position: index,
              id: block.id ?? `toolu_${index}`,
              name: block.name ?? '',
              input: block.input,
            });
          }
          break;
        }
        case 'content_block_delta': {
          const { index, delta } = event as BlockDeltaEvent;
          if (delta.type === 'input_json_delta') pending.append(index, delta.partial_json ?? '');
          break;
        }
        case 'content_block_stop':
          pending.complete((event as BlockStopEvent).index);
          break;
        case 'error': {
          const error = (event as ErrorEvent).error;
          const kind = error?.type === undefined ? '' : ` (${error.type})`;
          throw new ToolwavesError({
            code: 'provider_error',
            message: `The Anthropic stream reported an error${kind}: ${error?.message ?? 'no message'}`,
          });
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
