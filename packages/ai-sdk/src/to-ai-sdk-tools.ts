import { executeTool, type Tool, type ToolRegistry, toolJsonSchema } from '@toolwaves/core';
import { checkOption, checkOptions, optionRules } from '@toolwaves/core/internal';
import { type JSONSchema7, jsonSchema, type ToolSet, tool } from 'ai';
import { invalidOptions } from './step-options.js';
import { ToolLoopError } from './tool-loop-error.js';

/** Options of {@link toAiSdkTools}. */
export interface ToAiSdkToolsOptions {
  /**
   * Give each tool an `execute` that runs it (input validated with its zod schema first; a soft
   * error is thrown as a `ToolLoopError` `tool_error`, which the AI SDK hands to the model as a
   * `tool-error`): for `generateText` to run the tools itself, scheduled by `withToolwaves`.
   * Default `false`: the tools have no `execute`, and you dispatch each step's calls.
   */
  readonly execute?: boolean;
  /**
   * Add the optional boolean `wait_for_previous` to every tool's schema, for a dispatcher with
   * `modelOrdering: true` (it takes the field out of each call and makes `true` an edge to every
   * earlier call). Default `false`.
   */
  readonly modelOrdering?: boolean;
}

/**
 * The registry's tools as an AI SDK tool set for `generateText` / `streamText`: a description
 * and the input's JSON Schema (`toolJsonSchema`: the zod schema, or an MCP server's own schema),
 * and **no `execute`**, so the AI SDK stops at each step's tool calls and hands them back to you
 * to run through a dispatcher.
 *
 * The AI SDK does not validate the inputs against the schema (no validator is attached): the
 * dispatcher validates them with the tool's zod schema and answers a bad one with a soft error
 * that names the field, which the model can act on.
 *
 * With `{ execute: true }` each tool runs itself, for the AI SDK's own loop under
 * {@link withToolwaves}.
 *
 * @example
 * ```ts
 * const result = await generateText({ model, tools: toAiSdkTools(registry), messages });
 * const { messages: added } = await dispatchStep({ dispatcher, step: result });
 *
 * const tools = withToolwaves(toAiSdkTools(registry, { execute: true }), { dispatcher });
 * ```
 * @throws ToolLoopError `invalid_options` for a `registry` that is not one or a wrong option.
 * @see dispatchStep to answer one step's calls; runToolLoop for the whole loop.
 */
export function toAiSdkTools(registry: ToolRegistry, options: ToAiSdkToolsOptions = {}): ToolSet {
  checkOption({
    name: 'registry',
    value: registry,
    rule: optionRules.withMethods('a ToolRegistry', ['names', 'get']),
    error: invalidOptions,
  });
  checkOptions({
    subject: 'toAiSdkTools',
    options,
    rules: { execute: optionRules.boolean, modelOrdering: optionRules.boolean },
    error: invalidOptions,
  });
  const tools: ToolSet = {};
  for (const name of registry.names()) {
    const found = registry.get(name);
    if (found === undefined) continue;
    const schema = toolJsonSchema(found, { modelOrdering: options.modelOrdering === true });
    const inputSchema = jsonSchema(schema as JSONSchema7);
    tools[name] =
      options.execute === true
        ? tool({ description: found.description, inputSchema, execute: executeOf(found) })
        : tool({ description: found.description, inputSchema });
  }
  return tools;
}

/** An AI SDK `execute` running the tool; its soft error thrown, for the AI SDK's `tool-error`. */
function executeOf(found: Tool) {
  return async (
    input: unknown,
    options: { readonly toolCallId: string; readonly abortSignal?: AbortSignal | undefined },
  ): Promise<string> => {
    const output = await executeTool({
      tool: found,
      input,
      toolCallId: options.toolCallId,
      signal: options.abortSignal,
    });
    if (!output.isError) return output.content;
    throw new ToolLoopError({ code: 'tool_error', message: output.content });
  };
}
