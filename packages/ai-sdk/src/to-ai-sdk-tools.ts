import { type ToolRegistry, toolJsonSchema } from '@toolwaves/core';
import { type JSONSchema7, jsonSchema, type ToolSet, tool } from 'ai';

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
 * @example
 * ```ts
 * const result = await generateText({ model, tools: toAiSdkTools(registry), messages });
 * const { messages: added } = await dispatchStep({ dispatcher, step: result });
 * ```
 * @see dispatchStep to answer one step's calls; runToolLoop for the whole loop.
 */
export function toAiSdkTools(registry: ToolRegistry): ToolSet {
  const tools: ToolSet = {};
  for (const name of registry.names()) {
    const found = registry.get(name);
    if (found === undefined) continue;
    tools[name] = tool({
      description: found.description,
      inputSchema: jsonSchema(toolJsonSchema(found) as JSONSchema7),
    });
  }
  return tools;
}
