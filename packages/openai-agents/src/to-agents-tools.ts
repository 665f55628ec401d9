import { tool as agentsTool, type FunctionTool } from '@openai/agents-core';
import type { JsonObjectSchemaNonStrict } from '@openai/agents-core/types';
import { executeTool, type Tool, type ToolRegistry, toolJsonSchema } from '@toolwaves/core';
import { toolList } from '@toolwaves/core/internal';
import { invalidOptions } from './agents-adapter-error.js';

/**
 * toolwaves tools as Agents SDK function tools (name, description, JSON Schema, non-strict), for
 * an agent whose dispatcher's registry holds the same tools, so their declarations schedule
 * them. A tool's soft error (`{ isError: true }`) is its output, for the model to read; a tool
 * that throws throws (the SDK's error function answers).
 *
 * @example
 * ```ts
 * const registry = ToolRegistry.fromContainer(container); // e.g. fsToolsModule({ root })
 * const agent = withToolwaves(
 *   new Agent({ name: 'Editor', instructions, tools: toAgentsTools(registry) }),
 *   { dispatcher: new Dispatcher({ registry, mode: 'eager' }) },
 * );
 * ```
 * @throws AgentsAdapterError `invalid_options` when `tools` is neither (naming what it got).
 * @see withToolwaves
 */
export function toAgentsTools(
  tools: ToolRegistry | readonly Tool<unknown>[],
): FunctionTool<unknown, JsonObjectSchemaNonStrict<Record<string, never>>, string>[] {
  const list = toolList({ subject: 'toAgentsTools', tools, error: invalidOptions });
  return list.map((tool) =>
    agentsTool({
      name: tool.name,
      description: tool.description,
      parameters: toolJsonSchema(tool) as unknown as JsonObjectSchemaNonStrict<
        Record<string, never>
      >,
      strict: false,
      execute: async (input, _runContext, details) => {
        const output = await executeTool({
          tool,
          input,
          toolCallId: details?.toolCall?.callId ?? '',
          signal: details?.signal,
        });
        return output.content; // an error too: for the model to read
      },
    }),
  );
}
