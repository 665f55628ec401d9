import type { FunctionTool } from '@openai/agents-core';
import {
  takeWaitForPrevious,
  WAIT_FOR_PREVIOUS,
  WAIT_FOR_PREVIOUS_DESCRIPTION,
  withWaitForPrevious,
} from '@toolwaves/core';

type AnyFunctionTool = FunctionTool<unknown, never, unknown>;

/**
 * A function tool's parameters with `wait_for_previous` added (for `modelOrdering`): optional for
 * a non-strict tool; for a strict one (every field required, no others), a required
 * `boolean | null` the model sets to `null` when it does not mean it.
 *
 * @throws ToolwavesError `invalid_tool` for a tool whose own parameters have the field.
 */
export function parametersWithWaitForPrevious(
  tool: AnyFunctionTool,
): AnyFunctionTool['parameters'] {
  const own = tool.parameters as unknown as Record<string, unknown>;
  const added = withWaitForPrevious({ schema: own, toolName: tool.name });
  if (tool.strict !== true) return added as unknown as AnyFunctionTool['parameters'];
  const properties = added.properties as Record<string, unknown>;
  const required = Array.isArray(own.required) ? (own.required as string[]) : [];
  return {
    ...added,
    properties: {
      ...properties,
      [WAIT_FOR_PREVIOUS]: {
        type: ['boolean', 'null'],
        description: WAIT_FOR_PREVIOUS_DESCRIPTION,
      },
    },
    required: [...required, WAIT_FOR_PREVIOUS],
  } as unknown as AnyFunctionTool['parameters'];
}

/** The arguments text without `wait_for_previous`, for the tool itself (text that is not JSON as it is). */
export function argumentsWithoutWaitForPrevious(input: string): string {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    return input;
  }
  const taken = takeWaitForPrevious(value);
  return taken.input === value ? input : JSON.stringify(taken.input);
}
