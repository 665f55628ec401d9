import type { ToolCall, ToolResult } from '@toolwaves/core';
import type { ModelMessage } from 'ai';
import { toAiSdkToolMessage } from './to-ai-sdk-tool-message.js';

/**
 * What a step adds to the conversation: its response messages, then one `tool` message answering
 * every call in call order. Answers the AI SDK wrote itself for calls it could not parse are
 * dropped from the response messages: the dispatcher answered those calls too, and a call must
 * be answered once.
 */
export function stepMessages(options: {
  readonly responseMessages: readonly ModelMessage[];
  readonly calls: readonly ToolCall[];
  readonly results: readonly ToolResult[];
}): ModelMessage[] {
  const { responseMessages, calls, results } = options;
  if (calls.length === 0) return [...responseMessages];
  const answered = new Set(calls.map((call) => call.id));
  const messages = responseMessages.flatMap((message): ModelMessage[] => {
    if (message.role !== 'tool') return [message];
    const content = message.content.filter(
      (part) => !(part.type === 'tool-result' && answered.has(part.toolCallId)),
    );
    if (content.length === message.content.length) return [message];
    return content.length === 0 ? [] : [{ ...message, content }];
  });
  return [...messages, toAiSdkToolMessage(results)];
}
