import { checkOptions } from '../check-options.js';
import type { JsonSchema } from '../json-schema.js';
import { MalformedArguments } from '../malformed-arguments.js';
import type { ToolCall } from '../tool-call.js';
import type { ToolRegistry } from '../tool-registry.js';
import type { ToolResult } from '../tool-result.js';
import { invalidOptions } from '../toolwaves-error.js';
import { TOOL_SCHEMA_RULES, type ToolSchemaOptions, toolJsonSchema } from './tool-json-schema.js';

/** A tool call as OpenAI chat completions sends it (`message.tool_calls[i]`). */
export interface OpenAIToolCall {
  readonly id: string;
  readonly type?: 'function' | string;
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A `tool` message answering one call. */
export interface OpenAIToolMessage {
  readonly role: 'tool';
  readonly tool_call_id: string;
  readonly content: string;
}

/** A tool definition for the `tools` parameter. */
export interface OpenAIToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonSchema;
  };
}

/**
 * The calls of an assistant message, in order. Arguments are a JSON string: text that does not
 * parse becomes a {@link MalformedArguments} input, which the dispatcher answers with a soft error
 * saying the arguments were not valid JSON, so every call still gets its answer.
 *
 * @example
 * ```ts
 * const calls = fromOpenAIToolCalls(completion.choices[0].message.tool_calls ?? []);
 * const results = await dispatcher.dispatch(calls);
 * messages.push(...toOpenAIToolMessages(results));
 * ```
 */
export function fromOpenAIToolCalls(toolCalls: readonly OpenAIToolCall[]): ToolCall[] {
  return toolCalls.map((call) => ({
    id: call.id,
    name: call.function.name,
    input: MalformedArguments.parse(call.function.arguments),
  }));
}

/**
 * One `tool` message per result, in the order given (the dispatcher's order is the model's).
 * OpenAI has no error flag, so an error's content is prefixed with `Error: `.
 */
export function toOpenAIToolMessages(results: readonly ToolResult[]): OpenAIToolMessage[] {
  return results.map((result) => ({
    role: 'tool',
    tool_call_id: result.toolCallId,
    content:
      result.isError && !result.content.startsWith('Error')
        ? `Error: ${result.content}`
        : result.content,
  }));
}

/**
 * The registry's tools as OpenAI function tools, sorted by name, parameters from the zod
 * schemas; with `modelOrdering`, each has the optional boolean `wait_for_previous`
 * ({@link toolJsonSchema}).
 */
export function toOpenAITools(
  registry: ToolRegistry,
  options: ToolSchemaOptions = {},
): OpenAIToolDefinition[] {
  checkOptions({
    subject: 'toOpenAITools',
    options,
    rules: TOOL_SCHEMA_RULES,
    error: invalidOptions,
  });
  return registry.names().flatMap((name) => {
    const tool = registry.get(name);
    if (tool === undefined) return [];
    return [
      {
        type: 'function' as const,
        function: {
          name: tool.name,
          description: tool.description,
          parameters: toolJsonSchema(tool, options),
        },
      },
    ];
  });
}
