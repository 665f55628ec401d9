import { checkOptions } from '@toolwaves/core/internal';
import { listAllMcpTools } from './list-all-mcp-tools.js';
import type { McpClientLike } from './mcp-client-like.js';
import {
  checkOverride,
  invalidOptions,
  type MCP_OPTION_RULES,
  mcpOptionRules,
} from './mcp-option-rules.js';
import { type McpTool, mcpTool } from './mcp-tool.js';
import type { McpToolOverride } from './mcp-tool-override.js';
import { McpToolsError } from './mcp-tools-error.js';
import type { McpTrust } from './mcp-trust.js';

/** Options of {@link mcpTools}. */
export interface McpToolsOptions {
  /** A connected MCP client (`Client` from `@modelcontextprotocol/sdk`). */
  readonly client: McpClientLike;
  /** A name for the server: its tools' default resource key is `mcp:<server>`. */
  readonly server: string;
  /** Per-tool declarations over the annotations, keyed by the tool's name on the server. */
  readonly overrides?: Readonly<Record<string, McpToolOverride>> | undefined;
  /**
   * Put before every tool's name (e.g. `'fs_'`), so two servers with a tool of the same name
   * fit in one registry. The server is still called with the plain name.
   */
  readonly prefix?: string | undefined;
  /** Time limit of each `tools/call` request in ms; default the client's (60 s in the SDK). */
  readonly requestTimeoutMs?: number | undefined;
  /** Cancels the listing. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Whether the server's annotations are believed: `'none'` (the default, as the MCP
   * specification asks of a client for a server it has not been told to trust: every tool runs
   * alone unless `overrides` declare it) or `'annotations'` (see {@link McpTrust}).
   */
  readonly trust?: McpTrust | undefined;
}

/**
 * Lists the tools of a connected MCP client (every page) and wraps each as a toolwaves tool
 * (see {@link mcpTool} for the declarations): under `trust: 'annotations'`, `readOnlyHint: true`
 * → a read of `mcp:<server>`, anything else → a write of it; under `trust: 'none'` (the default)
 * every tool runs alone unless `overrides` declare it. Overrides win, per tool.
 *
 * @throws McpToolsError `invalid_options` naming a bad option, `unknown_override` for an
 *   override of a tool the server does not list, `list_failed` when listing fails.
 * @example
 * ```ts
 * const tools = await mcpTools({
 *   client,
 *   server: 'fs',
 *   overrides: await filesystemServerOverrides({ client, server: 'fs' }), // a key per file
 * });
 * for (const tool of tools) registry.add(tool);
 * ```
 * @see addMcpTools to add them to a registry in one call.
 */
export async function mcpTools(options: McpToolsOptions): Promise<McpTool[]> {
  checkMcpToolsOptions({ subject: 'mcpTools', options });
  const { client, server, overrides = {}, prefix, requestTimeoutMs, signal, trust } = options;
  const listed = await listAllMcpTools({ client, server, signal });
  const names = listed.map((tool) => tool.name);
  for (const name of Object.keys(overrides)) {
    if (!names.includes(name)) {
      throw new McpToolsError({
        code: 'unknown_override',
        message: `\`overrides\` names \`${name}\`, which MCP server \`${server}\` does not list; its tools are: ${
          names.length === 0 ? '(none)' : names.map((known) => `\`${known}\``).join(', ')
        }`,
      });
    }
  }
  return listed.map((tool) =>
    mcpTool({
      client,
      server,
      listed: tool,
      override: Object.hasOwn(overrides, tool.name) ? overrides[tool.name] : undefined,
      prefix,
      requestTimeoutMs,
      trust,
    }),
  );
}

/** Checks the options of mcpTools (or of `subject`, which takes them and `extra` more). */
export function checkMcpToolsOptions(check: {
  readonly subject: string;
  readonly options: unknown;
  readonly extra?: readonly (keyof typeof MCP_OPTION_RULES)[];
}): void {
  checkOptions({
    subject: check.subject,
    options: check.options,
    rules: mcpOptionRules([...MCP_TOOLS_OPTIONS, ...(check.extra ?? [])]),
    required: ['client', 'server', ...(check.extra ?? [])],
    error: invalidOptions,
  });
  const { overrides } = check.options as McpToolsOptions;
  for (const [name, override] of Object.entries(overrides ?? {})) {
    checkOverride({ name: `overrides.${name}`, override });
  }
}

/** The options of {@link mcpTools}, in the order the message lists them. */
const MCP_TOOLS_OPTIONS = [
  'client',
  'server',
  'overrides',
  'prefix',
  'requestTimeoutMs',
  'signal',
  'trust',
] as const;
