/**
 * The annotations an MCP server may attach to a tool. They are hints: toolwaves reads
 * `readOnlyHint` to decide how the tool's calls may overlap.
 */
export interface McpToolAnnotations {
  readonly title?: string | undefined;
  /** The tool does not modify its environment. */
  readonly readOnlyHint?: boolean | undefined;
  readonly destructiveHint?: boolean | undefined;
  readonly idempotentHint?: boolean | undefined;
  readonly openWorldHint?: boolean | undefined;
}

/** One tool as `tools/list` describes it. */
export interface McpListedTool {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** The JSON Schema of the tool's arguments (an object schema). */
  readonly inputSchema: { readonly [key: string]: unknown };
  readonly annotations?: McpToolAnnotations | undefined;
}

/** One page of `tools/list`. */
export interface McpListToolsResult {
  readonly tools: readonly McpListedTool[];
  readonly nextCursor?: string | undefined;
}

/** Transport options of one MCP request, as the SDK's `Client` takes them. */
export interface McpRequestOptions {
  readonly signal?: AbortSignal | undefined;
  /** Time limit of the request in ms (the SDK's default is 60 000). */
  readonly timeout?: number | undefined;
}

/**
 * What `@toolwaves/mcp` needs of an MCP client (every request it sends carries the active W3C
 * trace context in `params._meta`: see `traceContextMeta`): a connected `Client` from
 * `@modelcontextprotocol/sdk` fits, and so does anything with the same two methods (a test
 * double, a client wrapper).
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * const client: McpClientLike = new Client({ name: 'my-agent', version: '1.0.0' });
 * ```
 */
export interface McpClientLike {
  listTools(
    params?: { cursor?: string; _meta?: Record<string, unknown> },
    options?: McpRequestOptions,
  ): Promise<McpListToolsResult>;
  /**
   * Calls a tool. The answer is read defensively: `content` parts, `structuredContent`,
   * `isError`, or the older `toolResult` form.
   */
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: McpRequestOptions,
  ): Promise<unknown>;
}
