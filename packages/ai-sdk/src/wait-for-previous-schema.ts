import { takeWaitForPrevious, withWaitForPrevious } from '@toolwaves/core';
import { asSchema, type FlexibleSchema, type JSONSchema7, jsonSchema, type Schema } from 'ai';

/**
 * An AI SDK tool's input schema with the optional boolean `wait_for_previous` added (for
 * `modelOrdering`): the model sees it in the JSON Schema; validation takes it out, validates the
 * rest with the tool's own schema, and puts a `true` back for the dispatcher to read (it makes
 * the call an edge to every earlier call of its step). A value that is not a boolean fails
 * validation, naming the field and the value.
 *
 * @throws ToolwavesError `invalid_tool` (when the schema is first read) for a tool whose own
 *   input already has a `wait_for_previous` field.
 */
export function withWaitForPreviousSchema(
  inputSchema: FlexibleSchema<unknown>,
  toolName: string,
): Schema<unknown> {
  const own = asSchema(inputSchema);
  return jsonSchema<unknown>(
    async () =>
      withWaitForPrevious({
        schema: (await own.jsonSchema) as Record<string, unknown>,
        toolName,
      }) as JSONSchema7,
    {
      validate: async (value) => {
        const taken = takeWaitForPrevious(value);
        if (taken.invalid !== undefined) {
          return { success: false, error: new TypeError(`Invalid input: ${taken.invalid}`) };
        }
        const checked =
          own.validate === undefined
            ? { success: true as const, value: taken.input }
            : await own.validate(taken.input);
        if (!checked.success || !taken.waitForPrevious) return checked;
        return {
          success: true,
          value: { ...(checked.value as Record<string, unknown>), wait_for_previous: true },
        };
      },
    },
  );
}
