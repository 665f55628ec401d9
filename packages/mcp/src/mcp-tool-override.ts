import type { Access } from '@toolwaves/planner';

/** The arguments of an MCP tool call: a JSON object, as the server's input schema describes it. */
export type McpToolInput = Readonly<Record<string, unknown>>;

/**
 * What the user says about one MCP tool, over what its annotations say. Every field is
 * optional; a field that is present replaces the default. Under `trust: 'none'` (the default) a
 * tool runs alone unless its override declares `readOnly`, `concurrencySafe` or `access`.
 *
 * @example
 * ```ts
 * const keys = await McpPathKeys.fromServer({ client, server: 'fs' });
 * const overrides: Record<string, McpToolOverride> = {
 *   // writes to different files may overlap; writes to one file (any spelling) serialize
 *   write_file: { access: keys.access((input) => [{ path: input.path, mode: 'write' }]) },
 *   // the server forgot its hint
 *   search: { readOnly: true },
 * };
 * ```
 * @see mcpTools
 * @see McpPathKeys for keys on paths (not on the raw path string, which misses aliases).
 */
export interface McpToolOverride {
  /** Replaces the `readOnlyHint` annotation: a read access instead of a write access. */
  readonly readOnly?: boolean;
  /**
   * Whether a call may run alongside others. Default `true`: the access list keeps conflicting
   * calls apart. `false` makes every call of the tool run alone.
   */
  readonly concurrencySafe?: boolean | ((input: McpToolInput) => boolean);
  /**
   * The resources a call reads or writes, replacing the default (a read or a write of
   * `mcp:<server>`). Keys overlap along `/`, so `mcp:fs/a.txt` conflicts with a write of
   * `mcp:fs` but not with `mcp:fs/b.txt`.
   */
  readonly access?: readonly Access[] | ((input: McpToolInput) => readonly Access[]);
  /**
   * Running it again with the same input has no further effect (`Tool.idempotent`: a durable
   * turn may re-run it after a crash). Replaces the `idempotentHint` annotation.
   */
  readonly idempotent?: boolean;
  /** Replaces the description the server gives. */
  readonly description?: string;
}
