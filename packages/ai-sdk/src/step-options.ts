import {
  checkOptions,
  type OptionRule,
  optionRules,
  WHILE_STREAMING,
} from '@toolwaves/core/internal';
import type { Dispatcher } from '@toolwaves/executor-rx';
import { ToolLoopError } from './tool-loop-error.js';

/** A {@link ToolLoopError} `invalid_options` with that message (the `error` of the checks). */
export function invalidOptions(message: string): ToolLoopError {
  return new ToolLoopError({ code: 'invalid_options', message });
}

/**
 * A toolwaves `Dispatcher`, known by what this package calls on it (`dispatch`,
 * `dispatchStream`, `registry`): a `ToolRegistry` or a bare turn source is named, not used.
 */
export const DISPATCHER: OptionRule<Dispatcher> = {
  expected: 'a Dispatcher',
  test: (value): value is Dispatcher =>
    optionRules.withMethods('a Dispatcher', ['dispatch', 'dispatchStream']).test(value) &&
    typeof (value as Partial<Dispatcher>).registry?.names === 'function',
};

/** The options of one step's dispatch: `dispatcher`, `step`, `signal`, `onEvent`. */
const stepRules = (step: OptionRule<unknown>): Readonly<Record<string, OptionRule<unknown>>> => ({
  dispatcher: DISPATCHER,
  step,
  signal: { expected: 'an AbortSignal', test: (value) => value instanceof AbortSignal },
  onEvent: optionRules.function,
});

/** A streamed step's options: a step's, and `whileStreaming`. */
const streamedStepRules = (
  step: OptionRule<unknown>,
): Readonly<Record<string, OptionRule<unknown>>> => ({
  ...stepRules(step),
  whileStreaming: WHILE_STREAMING,
});

const STEP = {
  dispatchStep: stepRules({
    expected: 'a step result ({ toolCalls, response: { messages } })',
    test: (value): value is unknown =>
      optionRules.object.test(value) &&
      Array.isArray((value as { toolCalls?: unknown }).toolCalls) &&
      Array.isArray((value as { response?: { messages?: unknown } }).response?.messages),
  }),
  dispatchStreamedStep: streamedStepRules({
    expected: 'a streamed step ({ fullStream, response })',
    test: (value): value is unknown =>
      optionRules.object.test(value) &&
      typeof (value as { fullStream?: { [Symbol.asyncIterator]?: unknown } }).fullStream?.[
        Symbol.asyncIterator
      ] === 'function',
  }),
};

/**
 * Checks the options of `dispatchStep` or `dispatchStreamedStep` (every one by its rule, an
 * unknown one refused with a "did you mean" for a near miss).
 *
 * @throws ToolLoopError `invalid_options` naming the field and the value.
 */
export function checkStepOptions(check: {
  readonly subject: keyof typeof STEP;
  readonly options: unknown;
}): void {
  const { subject, options } = check;
  checkOptions({
    subject,
    options,
    rules: STEP[subject],
    required: ['dispatcher', 'step'],
    error: invalidOptions,
  });
}
