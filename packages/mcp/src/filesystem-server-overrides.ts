import { checkOptions } from '@toolwaves/core/internal';
import type { AccessMode } from '@toolwaves/planner';
import { listAllMcpTools } from './list-all-mcp-tools.js';
import type { McpClientLike, McpListedTool } from './mcp-client-like.js';
import { invalidOptions, mcpOptionRules } from './mcp-option-rules.js';
import { McpPathKeys, type McpPathUse } from './mcp-path-keys.js';
import type { McpToolInput, McpToolOverride } from './mcp-tool-override.js';
import type { McpTrust } from './mcp-trust.js';

/** Options of {@link filesystemServerOverrides}. */
export interface FilesystemServerOverridesOptions {
  /** A connected client of the server, asked for its tools and allowed directories. */
  readonly client: McpClientLike;
  /** The server's name, as given to `mcpTools` / `addMcpTools`. */
  readonly server: string;
  /** The allowed directories when you know them; by default the server is asked. */
  readonly roots?: readonly string[] | undefined;
  /** Aborts the questions to the server. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Whether the server's `readOnlyHint` decides reads from writes: `'annotations'` for a server
   * you trust (the official one), `'none'` (the default) makes every path access a write.
   */
  readonly trust?: McpTrust | undefined;
}

/** Input fields that hold one path, and the field that holds a list of them. */
const PATH_FIELDS = ['path', 'source', 'destination'] as const;
const PATHS_FIELD = 'paths';

/**
 * Per-path declarations for every tool of a filesystem-like MCP server (a preset for the
 * official `@modelcontextprotocol/server-filesystem`): a tool whose input schema has a `path`,
 * `source`, `destination` or `paths` field declares an access on each of those paths' keys (see
 * {@link McpPathKeys}) instead of one on the whole server. With `trust: 'annotations'`, a read
 * when the tool is annotated `readOnlyHint: true` (or the call is a `dryRun`), else a write; with
 * `trust: 'none'` (the default) always a write. So `move_file` writes both
 * `source` and `destination`. Tools without path fields keep the default. The server is asked
 * for its tools and its allowed directories.
 *
 * @example
 * ```ts
 * const overrides = await filesystemServerOverrides({ client, server: 'fs', trust: 'annotations' });
 * await addMcpTools({ registry, client, server: 'fs', overrides, trust: 'annotations' });
 * // write_file `alias.txt` then read_text_file `/srv/work/alias.txt`: one key, two waves;
 * // write_file `a.txt` and write_file `b.txt`: two keys, one wave.
 * ```
 * @see McpPathKeys to map single tools by hand.
 */
export async function filesystemServerOverrides(
  options: FilesystemServerOverridesOptions,
): Promise<Record<string, McpToolOverride>> {
  checkOptions({
    subject: 'filesystemServerOverrides',
    options,
    rules: mcpOptionRules(['client', 'server', 'roots', 'signal', 'trust']),
    required: ['client', 'server'],
    error: invalidOptions,
  });
  const { client, server, signal } = options;
  const listed = await listAllMcpTools({ client, server, signal });
  const keys = await McpPathKeys.fromServer({ client, server, roots: options.roots, signal });
  const overrides: Record<string, McpToolOverride> = {};
  for (const tool of listed) {
    const uses = pathUses(tool, options.trust === 'annotations');
    if (uses !== undefined) overrides[tool.name] = { access: keys.access(uses) };
  }
  return overrides;
}

/** How a call of the tool uses its paths, or `undefined` when its schema has no path field. */
function pathUses(
  tool: McpListedTool,
  trusted: boolean,
): ((input: McpToolInput) => McpPathUse[]) | undefined {
  const properties = tool.inputSchema.properties;
  const fields =
    typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
  const single = PATH_FIELDS.filter((field) => fields.includes(field));
  const listed = fields.includes(PATHS_FIELD);
  if (single.length === 0 && !listed) return undefined;
  // Untrusted, the hint and the server's promise about `dryRun` count for nothing: a write.
  const readOnly = trusted && tool.annotations?.readOnlyHint === true;
  return (input) => {
    const mode: AccessMode = readOnly || (trusted && input.dryRun === true) ? 'read' : 'write';
    const paths: unknown[] = single.map((field) => input[field]);
    if (listed) {
      const many = input[PATHS_FIELD];
      // Not a list: the server will refuse it; the coarse key (of a non-path) keeps it safe.
      paths.push(...(Array.isArray(many) ? many : [undefined]));
    }
    return paths.map((path) => ({ path, mode }));
  };
}
