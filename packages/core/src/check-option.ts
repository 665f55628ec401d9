import { describeValue } from './describe-value.js';
import type { OptionRule } from './option-rule.js';

/** Options of {@link optionMessage}. */
export interface OptionMessageOptions {
  /** The option's name, shown in backticks: `` `maxSteps` ``. */
  readonly name: string;
  /** What it must be, completing "Expected `name` to be …". */
  readonly expected: string;
  /** What it was. */
  readonly value: unknown;
  /**
   * Words in place of the backticked name, for what has no name of its own, e.g.
   * `'the options of mcpTools'`.
   */
  readonly subject?: string;
}

/**
 * The message of a wrong option, in the one shape every toolwaves package uses:
 * "Expected `maxConcurrency` to be an integer from 1 and up, got `0` (number)".
 *
 * @example
 * ```ts
 * optionMessage({ name: 'root', expected: 'a directory', value: 3 });
 * // "Expected `root` to be a directory, got `3` (number)"
 * ```
 * @see checkOption, which tests the value and throws with this message.
 */
export function optionMessage(options: OptionMessageOptions): string {
  const subject = options.subject ?? `\`${options.name}\``;
  return `Expected ${subject} to be ${options.expected}, got ${describeValue(options.value)}`;
}

/** Options of {@link checkOption}. */
export interface CheckOptionOptions<T> extends Omit<OptionMessageOptions, 'expected'> {
  /** What the value must be (see `optionRules`). */
  readonly rule: OptionRule<T>;
  /**
   * Makes the package's own error from the message, e.g.
   * `(message) => new McpToolsError({ code: 'invalid_options', message })`.
   */
  readonly error: (message: string) => Error;
  /** Returned when the value is `undefined`; without it `undefined` is checked like any value. */
  readonly default?: T;
}

/**
 * Checks one option against a rule and returns it typed; throws the package's own error
 * (made by `error`) with a message naming the option and the value it got.
 *
 * @example
 * ```ts
 * const invalid = (message: string) => new FsToolsError({ code: 'invalid_options', message });
 * const maxResults = checkOption({
 *   name: 'maxResults',
 *   value: options.maxResults,
 *   rule: optionRules.integerFrom(1),
 *   default: 1000,
 *   error: invalid,
 * });
 * // throws "Expected `maxResults` to be an integer from 1 and up, got `0` (number)" for 0
 * ```
 * @see optionRules for the common rules, optionMessage for the message alone.
 */
export function checkOption<T>(options: CheckOptionOptions<T>): T {
  const { value, rule } = options;
  if (value === undefined && Object.hasOwn(options, 'default')) return options.default as T;
  if (rule.test(value)) return value;
  throw options.error(
    optionMessage({
      name: options.name,
      expected: rule.expected,
      value,
      ...(options.subject === undefined ? {} : { subject: options.subject }),
    }),
  );
}
