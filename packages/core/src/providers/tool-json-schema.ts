import { toJSONSchema } from 'zod';
import { checkOptions } from '../check-options.js';
import type { JsonSchema } from '../json-schema.js';
import { optionRules } from '../option-rule.js';
import type { Tool } from '../tool.js';
import { invalidOptions } from '../toolwaves-error.js';
import { withWaitForPrevious } from '../wait-for-previous.js';

/** Options of {@link toolJsonSchema} and the provider tool lists (`toOpenAITools`, …). */
export interface ToolSchemaOptions {
  /**
   * Add the optional boolean `wait_for_previous` to the schema, for a Dispatcher (or adapter)
   * with `modelOrdering: true`: the model sets it on a call that must start after every call
   * written before it. Default `false`.
   */
  readonly modelOrdering?: boolean | undefined;
}

/** What the options of {@link toolJsonSchema} must be (the provider tool lists' too). */
export const TOOL_SCHEMA_RULES = { modelOrdering: optionRules.boolean } as const;

/**
 * The JSON Schema of a tool's input: the tool's own `jsonSchema` when it has one (e.g. a schema
 * an MCP server published), else its zod schema converted (`io: 'input'`, so defaults are
 * optional); a tool with neither takes any object. `$schema` is dropped. With
 * `modelOrdering`, the optional boolean `wait_for_previous` is added (`withWaitForPrevious`).
 *
 * @throws ToolwavesError `invalid_options` for an unknown or wrong option; `invalid_tool` when
 *   `modelOrdering` meets a tool whose input already has a `wait_for_previous` field.
 */
export function toolJsonSchema(tool: Tool, options: ToolSchemaOptions = {}): JsonSchema {
  checkOptions({
    subject: 'toolJsonSchema',
    options,
    rules: TOOL_SCHEMA_RULES,
    error: invalidOptions,
  });
  const schema = ownSchema(tool);
  return options.modelOrdering === true
    ? withWaitForPrevious({ schema, toolName: tool.name })
    : schema;
}

function ownSchema(tool: Tool): JsonSchema {
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
