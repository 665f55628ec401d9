import type { ToolCall } from '@toolwaves/core';
import { type OptionRule, optionRules } from '@toolwaves/core/internal';
import { RestateTurnError } from './restate-turn-error.js';

/** A {@link RestateTurnError} `invalid_options` with that message (the `error` of the checks). */
export function invalidOptions(message: string): RestateTurnError {
  return new RestateTurnError({ code: 'invalid_options', message });
}

const TOOL_CALL: OptionRule<ToolCall> = {
  expected: 'a tool call ({ id, name, input })',
  test: (value): value is ToolCall =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'string' &&
    typeof (value as { name?: unknown }).name === 'string',
};

/**
 * What each option of this package's functions must be, by name: each function checks the
 * ones it takes (`checkOptions` with a pick of these), so one name means one thing throughout.
 */
export const RESTATE_OPTION_RULES = {
  dispatcher: optionRules.dispatcher,
  registry: optionRules.withMethods('a ToolRegistry (with get)', ['get']),
  calls: optionRules.arrayOf('an array of tool calls', TOOL_CALL),
  call: TOOL_CALL,
  turnId: optionRules.nonEmptyString,
  driver: optionRules.withMethods('a JournalDriver (with step)', ['step']),
  tool: optionRules.withMethods('a tool ({ name, execute(input, context) })', ['execute']),
  coordinator: optionRules.withMethods('a fleet Coordinator (with acquire)', ['acquire']),
  durations: {
    expected: 'a Map',
    test: (value: unknown): value is Map<string, number> => value instanceof Map,
  },
  toolName: optionRules.nonEmptyString,
  callId: optionRules.string,
} satisfies Record<string, OptionRule<unknown>>;

/** What the `ctx` of a durable turn must be: a Restate handler's Context. */
export const CONTEXT_RULE = optionRules.withMethods('a Restate Context (with run and request)', [
  'run',
  'request',
]);
