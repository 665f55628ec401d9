/**
 * What went wrong, for {@link McpToolsError}:
 * - `invalid_options`: an option of `mcpTools` / `addMcpTools` is wrong (named in the message);
 * - `unknown_override`: `overrides` names a tool the server does not list (a typo, or a tool the
 *   server dropped);
 * - `list_failed`: the server could not list its tools (`cause` holds the client's error);
 * - `duplicate_tool`: `addMcpTools` found a tool of that name in the registry already (nothing
 *   was added; a `prefix` keeps two servers' names apart);
 * - `call_failed`: a tool call failed at the protocol level (the client threw: an MCP error, a
 *   closed connection, a request timeout). A dispatcher answers it as a soft error.
 */
export type McpToolsErrorCode =
  | 'invalid_options'
  | 'unknown_override'
  | 'list_failed'
  | 'duplicate_tool'
  | 'call_failed';

/** Options of the {@link McpToolsError} constructor. */
export interface McpToolsErrorOptions {
  readonly code: McpToolsErrorCode;
  readonly message: string;
  readonly cause?: unknown;
}

/**
 * The one error class of `@toolwaves/mcp`.
 *
 * @example
 * ```ts
 * try {
 *   await addMcpTools({ registry, client, server: 'fs' });
 * } catch (error) {
 *   if (error instanceof McpToolsError && error.code === 'list_failed') console.error(error.cause);
 *   throw error;
 * }
 * ```
 * @see McpToolsErrorCode for when each code is raised.
 */
export class McpToolsError extends Error {
  override readonly name = 'McpToolsError';
  readonly code: McpToolsErrorCode;

  constructor(options: McpToolsErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
  }
}
