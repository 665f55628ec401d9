import { toJSONSchema } from 'zod';
import type { Tool } from '../tool.js';

/** A JSON Schema object, as providers take it for a tool's parameters. */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * The JSON Schema of a tool's input, from its zod schema (`io: 'input'`, so defaults are optional);
 * a tool without a schema takes any object.
 */
export function toolJsonSchema(tool: Tool): JsonSchema {
  if (tool.input === undefined)
    return { type: 'object', properties: {}, additionalProperties: true };
  const { $schema: _dialect, ...schema } = toJSONSchema(tool.input, {
    io: 'input',
    unrepresentable: 'any',
  });
  return schema;
}
