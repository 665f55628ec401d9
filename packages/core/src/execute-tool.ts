import { checkOptions } from './check-options.js';
import { type OptionRule, optionRules } from './option-rule.js';
import type { Tool } from './tool.js';
import { invalidOptions } from './toolwaves-error.js';
import { validateInput } from './validate-input.js';

/** Options of {@link executeTool}. */
export interface ExecuteToolOptions {
  readonly tool: Tool;
  /** The input as the model wrote it: validated (and defaults filled in) with the tool's schema. */
  readonly input: unknown;
  readonly toolCallId: string;
  /** The framework's signal for the call; without one, a signal that never aborts. */
  readonly signal?: AbortSignal | undefined;
}

/** What {@link executeTool} resolves with: the tool's answer, and whether it is an error. */
export interface ExecutedTool {
  readonly content: string;
  readonly isError: boolean;
}

/**
 * Runs a toolwaves tool once, outside a dispatcher, the way a framework that executes its tools
 * itself calls it (the framework adapters' tool converters): the input is validated with the
 * tool's schema first (an invalid one is answered with the soft error that names the field),
 * then `execute` runs with a context of its own (attempt 1). What the tool throws is thrown.
 *
 * @example
 * ```ts
 * const answer = await executeTool({ tool: readFile, input: { path: 'a.txt' }, toolCallId, signal });
 * if (answer.isError) throw new Error(answer.content);
 * ```
 * @see validateInput
 */
export async function executeTool(options: ExecuteToolOptions): Promise<ExecutedTool> {
  checkOptions({
    subject: 'executeTool',
    options,
    rules: {
      tool: optionRules.withMethods('a tool ({ name, execute(input, context) })', ['execute']),
      toolCallId: optionRules.string,
      signal: { expected: 'an AbortSignal', test: (value) => value instanceof AbortSignal },
    } satisfies Record<Exclude<keyof ExecuteToolOptions, 'input'>, OptionRule<unknown>>,
    // validated against the tool's schema below: a wrong input is the tool's soft error
    checkedApart: ['input'],
    required: ['tool', 'toolCallId'],
    error: invalidOptions,
  });
  const { tool } = options;
  const input = validateInput(tool, options.input);
  if (!input.ok) return { content: input.message, isError: true };
  const output = await tool.execute(input.value, {
    toolCallId: options.toolCallId,
    signal: options.signal ?? new AbortController().signal,
    attempt: 1,
  });
  if (typeof output === 'string') return { content: output, isError: false };
  return { content: output.content, isError: output.isError === true };
}
