import type { JsonSchema, Tool, ToolContext, ToolOutput } from '@toolwaves/core';
import { checkOptions } from '@toolwaves/core/internal';
import type { McpClientLike, McpListedTool, McpToolAnnotations } from './mcp-client-like.js';
import { mcpInputSchema } from './mcp-input-schema.js';
import { checkOverride, invalidOptions, mcpOptionRules } from './mcp-option-rules.js';
import { mcpServerKey } from './mcp-server-key.js';
import { mcpToolOutput } from './mcp-tool-output.js';
import type { McpToolInput, McpToolOverride } from './mcp-tool-override.js';
import { McpToolsError } from './mcp-tools-error.js';
import { type McpTrust, mcpDeclarations } from './mcp-trust.js';
import { withTraceContext } from './trace-context-meta.js';
import { withRequestSignal } from './with-request-signal.js';

/**
 * A tool of an MCP server as a toolwaves {@link Tool}. Its calls go to the server through the
 * client; its declarations come from the server's annotations and the user's override.
 */
export interface McpTool extends Tool<McpToolInput> {
  /** The server's name as the user gave it (the `mcp:<server>` key). */
  readonly server: string;
  /** The tool's name on its server (the toolwaves `name` may carry a prefix). */
  readonly mcpName: string;
  /** Whether calls take a read access (the `readOnlyHint`, or the override's `readOnly`). */
  readonly readOnly: boolean;
  /** The server's JSON Schema of the arguments, as listed. */
  readonly jsonSchema: JsonSchema;
  /** The server's annotations, as listed (believed only under `trust: 'annotations'`). */
  readonly annotations: McpToolAnnotations | undefined;
  /** Its calls count against the limit `mcp:<server>` when the Dispatcher has one. */
  readonly limitsIfConfigured: Readonly<Record<string, number>>;
}

/** Options of {@link mcpTool}. */
export interface McpToolOptions {
  readonly client: McpClientLike;
  readonly server: string;
  /** The tool as `tools/list` gave it. */
  readonly listed: McpListedTool;
  readonly override?: McpToolOverride | undefined;
  /** Put before the tool's name in the registry (the server still gets the plain name). */
  readonly prefix?: string | undefined;
  /** Time limit of each `tools/call` request in ms; default the client's. */
  readonly requestTimeoutMs?: number | undefined;
  /** Whether the server's annotations are believed; default `'none'` (see {@link McpTrust}). */
  readonly trust?: McpTrust | undefined;
}

const resolve = <T>(value: T | ((input: McpToolInput) => T), input: McpToolInput): T =>
  typeof value === 'function' ? (value as (input: McpToolInput) => T)(input) : value;

/**
 * Wraps one listed MCP tool. With `trust: 'annotations'` every call is concurrency-safe and
 * declares one access on `mcp:<server>`: a read when the tool is read-only (`readOnlyHint:
 * true`), else a write. So a server's mutating calls serialize among themselves and with its
 * reads, while its reads overlap each other and calls to other servers or tools. With `trust:
 * 'none'` (the default: annotations are untrusted hints) a tool runs alone unless its override
 * declares it. The override replaces any part. Every call counts against the limit
 * `mcp:<server>` (weight 1) when the Dispatcher (or its coordinator) has one.
 *
 * `execute` sends `tools/call` with the call's signal (an abort cancels the request) and the
 * active W3C trace context in `_meta` (so a traced server continues the trace). The answer
 * becomes a {@link ToolOutput} (`isError: true` stays an error); a protocol failure is thrown as
 * {@link McpToolsError} `call_failed`, which a dispatcher answers as a soft error.
 *
 * @see mcpTools to wrap every tool of a server at once.
 */
export function mcpTool(options: McpToolOptions): McpTool {
  checkOptions({
    subject: 'mcpTool',
    options,
    rules: mcpOptionRules([
      'client',
      'server',
      'listed',
      'override',
      'prefix',
      'requestTimeoutMs',
      'trust',
    ]),
    required: ['client', 'server', 'listed'],
    error: invalidOptions,
  });
  if (options.override !== undefined)
    checkOverride({ name: 'override', override: options.override });
  const { client, server, listed, override = {}, prefix = '', requestTimeoutMs } = options;
  const trust = options.trust ?? 'none';
  const { readOnly, concurrencySafe, access, idempotent } = mcpDeclarations({
    server,
    listed,
    override,
    trust,
  });
  const jsonSchema = listed.inputSchema;
  return {
    name: `${prefix}${listed.name}`,
    description:
      override.description ??
      listed.description ??
      listed.title ??
      listed.annotations?.title ??
      `Tool \`${listed.name}\` of MCP server \`${server}\``,
    input: mcpInputSchema(),
    server,
    mcpName: listed.name,
    readOnly,
    jsonSchema,
    annotations: listed.annotations,
    idempotent,
    limitsIfConfigured: { [mcpServerKey(server)]: 1 },
    isConcurrencySafe: (input) => resolve(concurrencySafe, input),
    access: (input) => resolve(access, input),
    execute: async (input: McpToolInput, context: ToolContext): Promise<ToolOutput> => {
      let result: unknown;
      try {
        result = await withRequestSignal(context.signal, (signal) =>
          client.callTool(
            withTraceContext({ name: listed.name, arguments: { ...input } }),
            undefined,
            {
              signal,
              ...(requestTimeoutMs === undefined ? {} : { timeout: requestTimeoutMs }),
            },
          ),
        );
      } catch (error) {
        if (context.signal.aborted) throw error;
        throw new McpToolsError({
          code: 'call_failed',
          message: `MCP server \`${server}\` could not run \`${listed.name}\`: ${
            error instanceof Error ? error.message : String(error)
          }`,
          cause: error,
        });
      }
      return mcpToolOutput(result);
    },
  };
}
