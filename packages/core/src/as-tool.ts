import { describeValue } from './describe-value.js';
import type { Tool } from './tool.js';
import { ToolwavesError } from './toolwaves-error.js';

/**
 * Checks that a value is a usable {@link Tool} (an object literal, an `fnTool`, or an instance
 * of a `@tool` class) and returns it typed as one.
 *
 * @throws ToolwavesError `invalid_tool` naming what is missing.
 */
export function asTool(value: unknown): Tool {
  const candidate = value as Partial<Tool> | null;
  const what =
    typeof value === 'object' && value !== null
      ? `\`${(value as object).constructor?.name ?? 'object'}\``
      : `\`${String(value)}\``;
  if (typeof value !== 'object' || candidate === null) {
    throw new ToolwavesError({
      code: 'invalid_tool',
      message: `Expected a tool object, got ${what}`,
    });
  }
  if (typeof candidate.name !== 'string' || candidate.name.trim() === '') {
    throw new ToolwavesError({
      code: 'invalid_tool',
      message: `Tool ${what} has no \`name\`: decorate its class with @tool({ name, description }) or give it a name`,
    });
  }
  if (candidate.runs !== undefined && candidate.runs !== 'after-previous') {
    throw new ToolwavesError({
      code: 'invalid_tool',
      message: `Expected \`runs\` of tool \`${candidate.name}\` to be 'after-previous', got ${describeValue(candidate.runs)}`,
    });
  }
  if (typeof candidate.execute !== 'function') {
    throw new ToolwavesError({
      code: 'invalid_tool',
      message: `Tool \`${candidate.name}\` has no \`execute\` function`,
    });
  }
  return candidate as Tool;
}
