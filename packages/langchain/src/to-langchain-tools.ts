import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { InteropZodObject } from '@langchain/core/utils/types';
import { executeTool, type Tool, type ToolRegistry, toolJsonSchema } from '@toolwaves/core';
import { toolList } from '@toolwaves/core/internal';
import { invalidOptions } from './langchain-adapter-error.js';

/**
 * toolwaves tools as LangChain tools (name, description, zod schema, implementation), for an
 * agent whose dispatcher's registry holds the same tools, so their declarations schedule them. A
 * tool's soft error (`{ isError: true }`) becomes a `ToolMessage` with `status: 'error'`; a tool
 * that throws throws.
 *
 * @example
 * ```ts
 * const container = new Container();
 * container.load(fsToolsModule({ root: process.cwd() }));
 * const registry = ToolRegistry.fromContainer(container);
 * const agent = createAgent({
 *   model,
 *   tools: toLangChainTools(registry),
 *   middleware: [toolwavesMiddleware({ dispatcher: new Dispatcher({ registry, mode: 'eager' }) })],
 * });
 * ```
 * @throws LangChainAdapterError `invalid_options` when `tools` is neither (naming what it got).
 * @see toolwavesMiddleware
 */
export function toLangChainTools(
  tools: ToolRegistry | readonly Tool<unknown>[],
): DynamicStructuredTool[] {
  const list = toolList({ subject: 'toLangChainTools', tools, error: invalidOptions });
  return list.map(
    (tool) =>
      new DynamicStructuredTool({
        name: tool.name,
        description: tool.description,
        // LangChain parses the input with the tool's zod schema (defaults filled in, as the
        // dispatcher does), or checks it against the JSON Schema of a tool without one
        schema: (tool.input ?? toolJsonSchema(tool)) as unknown as InteropZodObject,
        func: async (input: unknown, _runManager, config) => {
          const toolCallId = (config as ToolRunnableConfig | undefined)?.toolCall?.id ?? '';
          const output = await executeTool({ tool, input, toolCallId, signal: config?.signal });
          if (!output.isError) return output.content;
          return new ToolMessage({
            content: output.content,
            tool_call_id: toolCallId,
            name: tool.name,
            status: 'error',
          });
        },
      }),
  );
}
