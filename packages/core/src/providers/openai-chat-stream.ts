import { checkOptions } from '../check-options.js';
import { optionRules } from '../option-rule.js';
import type { ToolCall } from '../tool-call.js';
import { invalidOptions } from '../toolwaves-error.js';
import { PendingCalls } from './pending-calls.js';
import { type ToolCallDecoder, type ToolCallStream, teeToolCalls } from './tee-tool-calls.js';

/** One piece of a tool call in a streamed chunk (`choices[i].delta.tool_calls[j]`). */
export interface OpenAIToolCallDelta {
  /** Which call of the turn this piece belongs to. */
  readonly index: number;
  readonly id?: string;
  readonly function?: { readonly name?: string; readonly arguments?: string };
}

/**
 * The parts of an OpenAI chat completions stream chunk that carry tool calls (the SDK's
 * `ChatCompletionChunk` fits it, as do OpenAI-compatible servers' chunks).
 */
export interface OpenAIChatStreamChunk {
  readonly choices: readonly {
    readonly index: number;
    readonly delta: { readonly tool_calls?: readonly OpenAIToolCallDelta[] | null };
    readonly finish_reason?: string | null;
  }[];
}

/** Options of {@link toolCallsFromOpenAIChatStream}. */
export interface OpenAIChatStreamOptions {
  /** Which choice's calls to read when the request asked for several (`n`). Default 0. */
  readonly choice?: number;
}

/**
 * Tool calls from an OpenAI chat completions stream (`stream: true`), each yielded the moment
 * its arguments are complete, while `events` still gives the caller every chunk (text deltas,
 * usage, the finish reason). A call is complete when a call with a higher `index` has started
 * and its own arguments parse (so interleaved pieces of parallel calls are each put together
 * right), or when the choice's `finish_reason` arrives. Arguments that are not valid JSON
 * become a {@link MalformedArguments} input (a soft error naming the problem); a call the
 * stream left half-written is answered the same way, saying the stream ended first.
 *
 * @example
 * ```ts
 * const stream = await openai.chat.completions.create({ model, messages, tools, stream: true });
 * const { events, calls } = toolCallsFromOpenAIChatStream(stream);
 * const results = dispatcher.dispatchStream(calls);
 * for await (const chunk of events) process.stdout.write(chunk.choices[0]?.delta.content ?? '');
 * messages.push(...toOpenAIToolMessages(await results));
 * ```
 * @see ToolCallStream
 * @see fromOpenAIToolCalls for a finished message
 */
export function toolCallsFromOpenAIChatStream<E extends OpenAIChatStreamChunk>(
  stream: AsyncIterable<E>,
  options: OpenAIChatStreamOptions = {},
): ToolCallStream<E> {
  checkOptions({
    subject: 'toolCallsFromOpenAIChatStream',
    options,
    rules: { choice: optionRules.integerFrom(0) },
    error: invalidOptions,
  });
  return teeToolCalls<E>({ source: stream, decoder: chatDecoder(options.choice ?? 0) });
}

function chatDecoder(choiceIndex: number): ToolCallDecoder<OpenAIChatStreamChunk> {
  const pending = new PendingCalls();
  let highestIndex = -1;
  return {
    read(chunk: OpenAIChatStreamChunk): readonly ToolCall[] {
      for (const choice of chunk.choices) {
        if (choice.index !== choiceIndex) continue;
        for (const delta of choice.delta.tool_calls ?? []) {
          if (!pending.has(delta.index)) {
            pending.start(delta.index, {
              position: delta.index,
              id: delta.id ?? `call_${delta.index}`,
              name: delta.function?.name ?? '',
            });
            highestIndex = Math.max(highestIndex, delta.index);
          } else {
            pending.update(delta.index, {
              ...(delta.id === undefined ? {} : { id: delta.id }),
              ...(delta.function?.name === undefined ? {} : { name: delta.function.name }),
            });
          }
          pending.append(delta.index, delta.function?.arguments ?? '');
        }
        if (choice.finish_reason !== undefined && choice.finish_reason !== null) {
          pending.completeAll();
        } else {
          for (const key of pending.openKeys()) {
            if ((key as number) < highestIndex && parses(pending.argumentsOf(key) ?? ''))
              pending.complete(key);
          }
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

/** Whether argument text is whole: a JSON object (or array) that more text could only break. */
function parses(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}
