import { z } from 'zod';
import type { McpToolInput } from './mcp-tool-override.js';

const isJsonObject = (value: unknown): value is McpToolInput =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The zod `input` of an MCP tool: it checks only that the arguments are a JSON object (the
 * server validates them against its own schema). The server's JSON Schema itself travels on the
 * tool's `jsonSchema`, which `toolJsonSchema` — and every provider adapter built on it — hands
 * the model unchanged.
 */
export function mcpInputSchema(): z.ZodType<McpToolInput> {
  return z.custom<McpToolInput>(isJsonObject, { error: 'expected an object of arguments' });
}
