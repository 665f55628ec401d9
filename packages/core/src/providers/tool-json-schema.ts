import { toJSONSchema } from 'zod';
import type { JsonSchema } from '../json-schema.js';
import type { Tool } from '../tool.js';

/**
 * The JSON Schema of a tool's input: the tool's own `jsonSchema` when it has one (e.g. a schema
 * an MCP server published), else its zod schema converted (`io: 'input'`, so defaults are
 * optional); a tool with neither takes any object. `$schema` is dropped.
 */
export function toolJsonSchema(tool: Tool): JsonSchema {
  if (tool.jsonSchema !== undefined) {
    const { $schema: _dialect, ...own } = tool.jsonSchema;
    return own;
  }
  if (tool.input === undefined)
    return { type: 'object', properties: {}, additionalProperties: true };
  const { $schema: _dialect, ...schema } = toJSONSchema(tool.input, {
    io: 'input',
    unrepresentable: 'any',
  });
  return schema;
}
