import { checkOptions } from './check-options.js';
import { describeValue } from './describe-value.js';
import type { JsonSchema } from './json-schema.js';
import { optionRules } from './option-rule.js';
import { invalidOptions, ToolwavesError } from './toolwaves-error.js';

/** The argument `modelOrdering` adds to every tool's input schema given to the model. */
export const WAIT_FOR_PREVIOUS = 'wait_for_previous';

/** What the model reads about {@link WAIT_FOR_PREVIOUS}. */
export const WAIT_FOR_PREVIOUS_DESCRIPTION =
  'Set to true only when this call must start after every tool call written before it in this message has finished, e.g. it runs or reads what they change. Otherwise leave it out (or null): calls then run in parallel where that is safe. Not passed to the tool.';

/** What {@link withWaitForPrevious} reads. */
export interface WithWaitForPreviousOptions {
  /** The tool's own input JSON Schema (copied, never changed). */
  readonly schema: JsonSchema;
  /** The tool's name, for the error when its input already has the field. */
  readonly toolName: string;
}

/**
 * A tool's input JSON Schema with the optional boolean {@link WAIT_FOR_PREVIOUS} added to its
 * properties (with `modelOrdering`). The schema is copied, never changed in place.
 *
 * @throws ToolwavesError `invalid_tool` when the tool's own input already has a field of that
 *   name (the model's answer could not be told from the tool's), naming the tool.
 * @example
 * withWaitForPrevious({
 *   schema: { type: 'object', properties: { path: { type: 'string' } } },
 *   toolName: 'read_file',
 * });
 * // { type: 'object', properties: { path: …, wait_for_previous: { type: 'boolean', description: … } } }
 */
export function withWaitForPrevious(options: WithWaitForPreviousOptions): JsonSchema {
  checkOptions({
    subject: 'withWaitForPrevious',
    options,
    rules: { schema: optionRules.object, toolName: optionRules.nonEmptyString },
    required: ['schema', 'toolName'],
    error: invalidOptions,
  });
  const { schema, toolName } = options;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (Object.hasOwn(properties, WAIT_FOR_PREVIOUS)) {
    throw new ToolwavesError({
      code: 'invalid_tool',
      message: `Tool \`${toolName}\` already has an input field \`${WAIT_FOR_PREVIOUS}\`: modelOrdering cannot add its own`,
    });
  }
  return {
    ...schema,
    type: 'object',
    properties: {
      ...properties,
      [WAIT_FOR_PREVIOUS]: { type: 'boolean', description: WAIT_FOR_PREVIOUS_DESCRIPTION },
    },
  };
}

/** What {@link takeWaitForPrevious} found in a call's input. */
export interface TakenWaitForPrevious {
  /** The input without {@link WAIT_FOR_PREVIOUS} (the same object when it had none). */
  readonly input: unknown;
  /** The model set it to `true`. */
  readonly waitForPrevious: boolean;
  /** Set when its value is not a boolean: the call's input is invalid, with this message. */
  readonly invalid?: string;
}

/**
 * Takes {@link WAIT_FOR_PREVIOUS} out of a call's input before it is validated (with
 * `modelOrdering`): the tool never sees it. A value other than a boolean makes the input
 * invalid, with a message naming the field and the value.
 *
 * @example
 * takeWaitForPrevious({ path: 'a', wait_for_previous: true }); // { input: { path: 'a' }, waitForPrevious: true }
 */
export function takeWaitForPrevious(input: unknown): TakenWaitForPrevious {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { input, waitForPrevious: false };
  }
  if (!Object.hasOwn(input, WAIT_FOR_PREVIOUS)) return { input, waitForPrevious: false };
  const { [WAIT_FOR_PREVIOUS]: value, ...rest } = input as Record<string, unknown>;
  // `null`: how a strict schema (every field required) leaves it unset.
  if (value === undefined || value === null || typeof value === 'boolean') {
    return { input: rest, waitForPrevious: value === true };
  }
  return {
    input: rest,
    waitForPrevious: false,
    invalid: `\`${WAIT_FOR_PREVIOUS}\`: expected a boolean, got ${describeValue(value)}`,
  };
}
