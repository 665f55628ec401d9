import type { JsonSchema } from '@toolwaves/core';
import { z } from 'zod';
import type { McpToolInput } from './mcp-tool-override.js';

const isJsonObject = (value: unknown): value is McpToolInput =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The zod `input` of an MCP tool: it checks only that the arguments are a JSON object (the
 * server validates them against its own schema), and carries the server's JSON Schema as zod
 * metadata, so `toolJsonSchema` — and every provider adapter built on it — hands the model the
 * server's schema unchanged.
 *
 * `$schema` is dropped (providers take the dialect as given), and so is a draft-04 string `id`,
 * which zod would otherwise read as a schema identity and hoist into `$defs`.
 *
 * @example
 * ```ts
 * const input = mcpInputSchema({ type: 'object', properties: { path: { type: 'string' } } });
 * toolJsonSchema({ name: 'read', description: '', input, execute: () => '' });
 * // → { type: 'object', properties: { path: { type: 'string' } } }
 * ```
 */
export function mcpInputSchema(jsonSchema: JsonSchema): z.ZodType<McpToolInput> {
  const { $schema: _dialect, ...rest } = jsonSchema;
  const meta: Record<string, unknown> = { ...rest };
  if (typeof meta.id === 'string') delete meta.id;
  return z
    .custom<McpToolInput>(isJsonObject, { error: 'expected an object of arguments' })
    .meta(meta);
}
