import type { Tool } from './tool.js';

/** The outcome of {@link validateInput}. */
export type InputValidation<I = unknown> =
  | { readonly ok: true; readonly value: I }
  | { readonly ok: false; readonly message: string };

/**
 * Validates a call's input against its tool's zod schema. A tool without a schema accepts
 * anything. On failure the message names every field that is wrong and how, e.g.
 * "Invalid input for tool `read_file`: `path`: expected string, received number".
 *
 * @see Tool.input
 */
export function validateInput<I>(tool: Tool<I>, input: unknown): InputValidation<I> {
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
