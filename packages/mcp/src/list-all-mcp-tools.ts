import { checkOptions } from '@toolwaves/core/internal';
import type { McpClientLike, McpListedTool } from './mcp-client-like.js';
import { invalidOptions, mcpOptionRules } from './mcp-option-rules.js';
import { McpToolsError } from './mcp-tools-error.js';
import { withTraceContext } from './trace-context-meta.js';
import { withRequestSignal } from './with-request-signal.js';

/** Options of {@link listAllMcpTools}. */
export interface ListAllMcpToolsOptions {
  readonly client: McpClientLike;
  readonly server: string;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Every tool a server lists, following `nextCursor` page after page.
 *
 * @throws McpToolsError `list_failed` with the client's error as `cause`, or when the server
 *   repeats a cursor (it would page forever).
 */
export async function listAllMcpTools(options: ListAllMcpToolsOptions): Promise<McpListedTool[]> {
  checkOptions({
    subject: 'listAllMcpTools',
    options,
    rules: mcpOptionRules(['client', 'server', 'signal']),
    required: ['client', 'server'],
    error: invalidOptions,
  });
  const { client, server, signal } = options;
  const tools: McpListedTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    let page: Awaited<ReturnType<McpClientLike['listTools']>>;
    try {
      const params = withTraceContext(cursor === undefined ? {} : { cursor });
      page = await withRequestSignal(signal, (requestSignal) =>
        client.listTools(params, requestSignal === undefined ? {} : { signal: requestSignal }),
      );
    } catch (error) {
      throw new McpToolsError({
        code: 'list_failed',
        message: `Could not list the tools of MCP server \`${server}\`: ${
          error instanceof Error ? error.message : String(error)
        }`,
        cause: error,
      });
    }
    tools.push(...page.tools);
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (seen.has(cursor)) {
        throw new McpToolsError({
          code: 'list_failed',
          message: `MCP server \`${server}\` repeated the tools/list cursor \`${cursor}\``,
        });
      }
      seen.add(cursor);
    }
  } while (cursor !== undefined);
  return tools;
}
