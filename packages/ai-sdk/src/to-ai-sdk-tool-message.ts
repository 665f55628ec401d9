import type { ToolResult } from '@toolwaves/core';
import type { ToolModelMessage } from 'ai';

/**
 * One AI SDK `tool` message answering a step's calls: a `tool-result` part per result, in the
 * order given (a dispatcher's order is the model's), with `output` `{ type: 'text' }` or, for a
 * soft error, `{ type: 'error-text' }` (providers that have an error flag set it).
 *
 * @example
 * ```ts
 * const results = await dispatcher.dispatch(fromAiSdkToolCalls(result.toolCalls));
 * messages.push(...result.response.messages, toAiSdkToolMessage(results));
 * ```
 * @see dispatchStep which also drops the answers the AI SDK wrote itself for invalid calls.
 */
export function toAiSdkToolMessage(results: readonly ToolResult[]): ToolModelMessage {
  return {
    role: 'tool',
    content: results.map((result) => ({
      type: 'tool-result' as const,
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      output: result.isError
        ? { type: 'error-text' as const, value: result.content }
        : { type: 'text' as const, value: result.content },
    })),
  };
}
