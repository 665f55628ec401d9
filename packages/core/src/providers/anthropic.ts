import { checkOptions } from '../check-options.js';
import type { JsonSchema } from '../json-schema.js';
import type { ToolCall } from '../tool-call.js';
import type { ToolRegistry } from '../tool-registry.js';
import type { ToolResult } from '../tool-result.js';
import { invalidOptions } from '../toolwaves-error.js';
import { TOOL_SCHEMA_RULES, type ToolSchemaOptions, toolJsonSchema } from './tool-json-schema.js';

/** A content block of an Anthropic assistant message; only `tool_use` blocks matter here. */
export type AnthropicContentBlock =
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly input: unknown;
    }
  | { readonly type: string; readonly [key: string]: unknown };

/** One `tool_result` block. */
export interface AnthropicToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: string;
  readonly is_error: boolean;
}

/** The user message that answers every `tool_use` of a turn. */
export interface AnthropicToolResultMessage {
  readonly role: 'user';
  readonly content: AnthropicToolResultBlock[];
}

/** A tool definition for the `tools` parameter of the messages API. */
export interface AnthropicToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonSchema;
}

function isToolUse(
  block: AnthropicContentBlock,
): block is { type: 'tool_use'; id: string; name: string; input: unknown } {
  return block.type === 'tool_use';
}

/**
 * The calls of an assistant message: its `tool_use` blocks, in order (text blocks are skipped).
 *
 * @example
 * ```ts
 * const results = await dispatcher.dispatch(fromAnthropicContent(message.content));
 * messages.push({ role: 'assistant', content: message.content }, toAnthropicToolResultMessage(results));
 * ```
 */
export function fromAnthropicContent(content: readonly AnthropicContentBlock[]): ToolCall[] {
  return content
    .filter(isToolUse)
    .map((block) => ({ id: block.id, name: block.name, input: block.input }));
}

/** One user message holding a `tool_result` block per result, in order, with `is_error`. */
export function toAnthropicToolResultMessage(
  results: readonly ToolResult[],
): AnthropicToolResultMessage {
  return {
    role: 'user',
    content: results.map((result) => ({
      type: 'tool_result',
      tool_use_id: result.toolCallId,
      content: result.content,
      is_error: result.isError,
    })),
  };
}

/**
 * The registry's tools as Anthropic tool definitions, sorted by name; with `modelOrdering`,
 * each input schema has the optional boolean `wait_for_previous` ({@link toolJsonSchema}).
 */
export function toAnthropicTools(
  registry: ToolRegistry,
  options: ToolSchemaOptions = {},
): AnthropicToolDefinition[] {
  checkOptions({
    subject: 'toAnthropicTools',
    options,
    rules: TOOL_SCHEMA_RULES,
    error: invalidOptions,
  });
  return registry.names().flatMap((name) => {
    const tool = registry.get(name);
    if (tool === undefined) return [];
    const input_schema = toolJsonSchema(tool, options);
    return [{ name: tool.name, description: tool.description, input_schema }];
  });
}
