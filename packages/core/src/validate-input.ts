import { MalformedArguments } from './malformed-arguments.js';
import type { Tool } from './tool.js';

/** The outcome of {@link validateInput}. */
export type InputValidation<I = unknown> =
  | { readonly ok: true; readonly value: I }
  | { readonly ok: false; readonly message: string };

/**
 * Validates a call's input against its tool's zod schema. A tool without a schema accepts
 * anything. On failure the message names every field that is wrong and how, e.g.
 * "Invalid input for tool `read_file`: `path`: expected string, received number". Arguments that
 * were not valid JSON ({@link MalformedArguments}) are refused whatever the schema.
 *
 * @see Tool.input
 */
export function validateInput<I>(tool: Tool<I>, input: unknown): InputValidation<I> {
  if (input instanceof MalformedArguments) {
    const raw = input.raw.length > 200 ? `${input.raw.slice(0, 200)}...` : input.raw;
    return {
      ok: false,
      message: `The arguments of the call to \`${tool.name}\` were not valid JSON (${input.reason}): ${raw}`,
    };
  }
  if (tool.input === undefined) return { ok: true, value: input as I };
  const parsed = tool.input.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.length === 0 ? '(input)' : issue.path.map(String).join('.');
    const message = issue.message.replace(/^Invalid input: /, '');
    return `\`${field}\`: ${message}`;
  });
  return { ok: false, message: `Invalid input for tool \`${tool.name}\`: ${problems.join('; ')}` };
}
