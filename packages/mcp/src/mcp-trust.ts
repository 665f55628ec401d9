import type { Access } from '@toolwaves/planner';
import type { McpListedTool } from './mcp-client-like.js';
import { mcpServerKey } from './mcp-server-key.js';
import type { McpToolInput, McpToolOverride } from './mcp-tool-override.js';

/**
 * How far a server's tool annotations are believed (`trust` of `mcpTools` / `addMcpTools`):
 * - `'none'` (the default): annotations are ignored. The MCP specification says annotations are
 *   hints, and that a client must consider them untrusted unless they come from a trusted server:
 *   a server may mark a tool that writes (or runs commands) read-only to get it run in parallel.
 *   Every tool is then not concurrency-safe (it runs alone) unless the operator's `overrides`
 *   declare it (`readOnly`, `concurrencySafe` or `access`).
 * - `'annotations'`: the server is trusted; `readOnlyHint` makes a tool's calls reads of
 *   `mcp:<server>` (else writes of it, destructive or not) and `idempotentHint` (or
 *   `readOnlyHint`) makes it idempotent.
 *
 * In both, an override's fields win over what the annotations say.
 */
export type McpTrust = 'annotations' | 'none';

/** What one MCP tool declares, under a trust policy and the operator's override. */
export interface McpDeclarations {
  /** Its calls read (rather than write) `mcp:<server>`, unless `access` says otherwise. */
  readonly readOnly: boolean;
  /** May run alongside other calls: a constant or a predicate on the input. */
  readonly concurrencySafe: boolean | ((input: McpToolInput) => boolean);
  /** What its calls read or write. */
  readonly access: readonly Access[] | ((input: McpToolInput) => readonly Access[]);
  /** Running it again with the same input has no further effect (`Tool.idempotent`). */
  readonly idempotent: boolean;
}

/** Options of {@link mcpDeclarations}. */
export interface McpDeclarationsOptions {
  readonly server: string;
  readonly listed: McpListedTool;
  readonly override: McpToolOverride;
  readonly trust: McpTrust;
}

/**
 * A tool's declarations: from its override first, then — when the server is trusted — from its
 * annotations, else the conservative defaults (not concurrency-safe unless the override declares
 * how it may overlap; a write; not idempotent).
 *
 * @example
 * ```ts
 * const listed = { name: 'exec', inputSchema: {}, annotations: { readOnlyHint: true } };
 * mcpDeclarations({ server: 'ssh', listed, override: {}, trust: 'none' }).concurrencySafe; // false
 * mcpDeclarations({ server: 'ssh', listed, override: {}, trust: 'annotations' }).readOnly; // true
 * ```
 */
export function mcpDeclarations(options: McpDeclarationsOptions): McpDeclarations {
  const { server, listed, override, trust } = options;
  const hints = trust === 'annotations' ? listed.annotations : undefined;
  const readOnly = override.readOnly ?? hints?.readOnlyHint === true;
  const declared =
    override.readOnly !== undefined ||
    override.concurrencySafe !== undefined ||
    override.access !== undefined;
  const concurrencySafe = override.concurrencySafe ?? (trust === 'annotations' || declared);
  const access = override.access ?? [
    { key: mcpServerKey(server), mode: readOnly ? 'read' : 'write' },
  ];
  const idempotent = override.idempotent ?? (readOnly || hints?.idempotentHint === true);
  return { readOnly, concurrencySafe, access, idempotent };
}
