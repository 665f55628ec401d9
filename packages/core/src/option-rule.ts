/**
 * What an option must be: a test and the words for it in an error message ("an integer from 1
 * and up"). Rules for the common cases are in {@link optionRules}; a package may write its own.
 *
 * @example
 * ```ts
 * const port: OptionRule<number> = {
 *   expected: 'a port number',
 *   test: (value): value is number => Number.isInteger(value) && value > 0 && value < 65536,
 * };
 * ```
 * @see checkOption
 */
export interface OptionRule<T> {
  /** Completes "Expected `name` to be …", e.g. `'an integer from 1 and up'`. */
  readonly expected: string;
  /** Whether the value satisfies the rule. */
  test(value: unknown): value is T;
  /**
   * For an array: the rule of each element, checked by `checkOptions` under the element's own
   * name (`hooks.pre[1]`), so the message points at the one that is wrong.
   */
  readonly each?: OptionRule<unknown>;
}

const isNumber = (value: unknown): value is number => typeof value === 'number';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** An object with these methods (and a non-empty `name` when `named`): see `optionRules`. */
function withMethods(
  expected: string,
  methods: readonly string[],
  options: { readonly named?: boolean } = {},
): OptionRule<object> {
  return {
    expected,
    test: (value): value is object =>
      isObject(value) &&
      methods.every((method) => typeof value[method] === 'function') &&
      (options.named !== true || (typeof value.name === 'string' && value.name !== '')),
  };
}

/**
 * The option rules every toolwaves package uses, each with the words of its message.
 *
 * @example
 * ```ts
 * checkOption({ name: 'maxSteps', value, rule: optionRules.integerFrom(1), error });
 * // Expected `maxSteps` to be an integer from 1 and up, got `0` (number)
 * ```
 * @see checkOption
 */
export const optionRules = {
  /** A safe integer ≥ `min`. */
  integerFrom: (min: number): OptionRule<number> => ({
    expected: `an integer from ${min} and up`,
    test: (value): value is number => Number.isSafeInteger(value) && (value as number) >= min,
  }),
  /** A finite number ≥ `min`. */
  numberFrom: (min: number): OptionRule<number> => ({
    expected: `a finite number from ${min} and up`,
    test: (value): value is number => isNumber(value) && Number.isFinite(value) && value >= min,
  }),
  /** A finite number > `min`. */
  numberAbove: (min: number): OptionRule<number> => ({
    expected: `a finite number above ${min}`,
    test: (value): value is number => isNumber(value) && Number.isFinite(value) && value > min,
  }),
  /** `true` or `false`. */
  boolean: {
    expected: 'a boolean',
    test: (value): value is boolean => typeof value === 'boolean',
  } satisfies OptionRule<boolean>,
  /** Any string. */
  string: {
    expected: 'a string',
    test: (value): value is string => typeof value === 'string',
  } satisfies OptionRule<string>,
  /** A string with something other than whitespace in it. */
  nonEmptyString: {
    expected: 'a non-empty string',
    test: (value): value is string => typeof value === 'string' && value.trim() !== '',
  } satisfies OptionRule<string>,
  /** A function. */
  function: {
    expected: 'a function',
    test: (value): value is (...args: never[]) => unknown => typeof value === 'function',
  } satisfies OptionRule<(...args: never[]) => unknown>,
  /** A plain object (not `null`, not an array). */
  object: {
    expected: 'an object',
    test: (value): value is object =>
      typeof value === 'object' && value !== null && !Array.isArray(value),
  } satisfies OptionRule<object>,
  /** An array. */
  array: {
    expected: 'an array',
    test: (value): value is readonly unknown[] => Array.isArray(value),
  } satisfies OptionRule<readonly unknown[]>,
  /**
   * An array (`expected` says of what, e.g. `'an array of functions'`) whose every element
   * satisfies `each`, each named in the message (`pre[1]`).
   */
  arrayOf: <E>(expected: string, each: OptionRule<E>): OptionRule<readonly E[]> => ({
    expected,
    test: (value): value is readonly E[] => Array.isArray(value),
    each,
  }),
  /**
   * An object of some kind, known by its methods (duck typing keeps the packages from
   * importing each other's classes): `expected` names the kind, e.g. `'a Coordinator'`; with
   * `named`, it also needs a non-empty `name` string.
   */
  withMethods,
  /**
   * A toolwaves `Dispatcher` (of `@toolwaves/executor-rx`, which core cannot import), known by
   * `openTurn`: what the framework adapters take, e.g. "Expected `dispatcher` to be a Dispatcher
   * (with openTurn), got a ToolRegistry".
   */
  dispatcher: withMethods('a Dispatcher (with openTurn)', ['openTurn']),
  /** One of the listed literal values. */
  oneOf: <const V extends readonly (string | number | boolean)[]>(
    values: V,
  ): OptionRule<V[number]> => ({
    expected: `one of ${values.map((value) => JSON.stringify(value)).join(', ')}`,
    test: (value): value is V[number] => values.includes(value as V[number]),
  }),
} as const;
