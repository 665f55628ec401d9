import type { ToolRegistry } from '@toolwaves/core';
import type { McpTool } from './mcp-tool.js';
import { checkMcpToolsOptions, type McpToolsOptions, mcpTools } from './mcp-tools.js';
import { McpToolsError } from './mcp-tools-error.js';

/** Options of {@link addMcpTools}: those of {@link mcpTools} and the registry to add to. */
export interface AddMcpToolsOptions extends McpToolsOptions {
  readonly registry: ToolRegistry;
}

/**
 * Lists a server's tools, wraps them with {@link mcpTools} and adds them to a registry: all of
 * them or, when a name is already taken, none.
 *
 * @returns The tools added.
 * @throws McpToolsError `duplicate_tool` naming the first name already registered (a `prefix`
 *   keeps servers with clashing names apart), or any error of {@link mcpTools}.
 * @example
 * ```ts
 * const registry = new ToolRegistry();
 * await addMcpTools({ registry, client: fsClient, server: 'fs' });
 * await addMcpTools({ registry, client: webClient, server: 'web', prefix: 'web_' });
 * const dispatcher = new Dispatcher({ registry, mode: 'parallel' });
 * ```
 */
export async function addMcpTools(options: AddMcpToolsOptions): Promise<McpTool[]> {
  checkMcpToolsOptions({ subject: 'addMcpTools', options, extra: ['registry'] });
  const { registry, ...rest } = options;
  const tools = await mcpTools(rest);
  const taken = tools.find((tool) => registry.get(tool.name) !== undefined);
  if (taken !== undefined) {
    throw new McpToolsError({
      code: 'duplicate_tool',
      message: `A tool named \`${taken.name}\` is already registered; nothing of MCP server \`${taken.server}\` was added (give it a \`prefix\`)`,
    });
  }
  for (const tool of tools) registry.add(tool);
  return tools;
}
