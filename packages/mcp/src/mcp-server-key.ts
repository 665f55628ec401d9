/**
 * The resource key of an MCP server, `mcp:<server>`: what its tools read or write by default.
 * Keys are `/`-separated paths, so a finer key under it (`mcp:fs/notes.md`) overlaps the server's
 * key but not its siblings.
 *
 * @example
 * ```ts
 * mcpServerKey('fs'); // 'mcp:fs'
 * const byPath = (input: { path?: unknown }) => [
 *   { key: `${mcpServerKey('fs')}/${String(input.path)}`, mode: 'write' as const },
 * ];
 * ```
 * @see McpToolOverride.access
 */
export function mcpServerKey(server: string): string {
  return `mcp:${server}`;
}
